#include "domain/tenant.hpp"

namespace vcs::domain {

std::string_view to_string(api_key_status s) noexcept {
  return s == api_key_status::active ? "Active" : "Disabled";
}

std::optional<api_key_status> parse_api_key_status(std::string_view text) noexcept {
  if (text == "Active")
    return api_key_status::active;
  if (text == "Disabled")
    return api_key_status::disabled;
  return std::nullopt;
}

std::string caller_of(const principal& p) {
  if (p.client)
    return "client_user:" + std::to_string(p.client->client_user_id);
  if (p.member_id)
    return "member:" + std::to_string(*p.member_id);
  return "key:" + std::to_string(p.key_id);
}

} // namespace vcs::domain
