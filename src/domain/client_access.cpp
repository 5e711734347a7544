#include "domain/client_access.hpp"

#include "domain/portal_banner.hpp"

#include <algorithm>
#include <array>

namespace vcs::domain {

namespace {

constexpr std::array<std::string_view, 4> names{"no_access", "view_only", "view_and_add",
                                                "full_access"};

std::string spoken(access_level l) {
  auto text = std::string{to_string(l)};
  std::ranges::replace(text, '_', ' ');
  return text;
}

} // namespace

std::string_view to_string(access_level l) noexcept {
  return names[static_cast<std::size_t>(l)];
}

std::optional<access_level> parse_access_level(std::string_view text) noexcept {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == text)
      return static_cast<access_level>(i);
  return std::nullopt;
}

access_level level_of(const std::vector<std::pair<std::string, std::string>>& access,
                      std::string_view kind) {
  for (const auto& [k, level] : access)
    if (k == kind)
      return parse_access_level(level).value_or(access_level::no_access);
  return access_level::view_only;
}

bool portal_blocked(std::string_view subscription_status) noexcept {
  return subscription_status == "past_due" || subscription_status == "blocked";
}

error portal_payment_required(std::string_view subscription_status) {
  return {errc::forbidden,
          std::string{title_of(banner_for(subscription_status, true))} +
              ": only billing is open; access returns when the payment is recorded"};
}

error closed_to_client_users() {
  return {errc::forbidden, "This route is not open to client users"};
}

error client_level_too_low(access_level held, access_level needed) {
  return {errc::forbidden,
          "Your access to campaigns is " + spoken(held) + "; this needs " + spoken(needed)};
}

} // namespace vcs::domain
