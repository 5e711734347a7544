#include "domain/provider_b_signature.hpp"

#include "domain/trim.hpp"
#include "domain/webhook_signature.hpp"

#include <charconv>
#include <optional>

namespace vcs::domain {

std::string sign_provider_b(std::string_view api_key, std::string_view body, int64_t unix_ms) {
  std::string message{body};
  message += std::to_string(unix_ms);
  return "v=" + std::to_string(unix_ms) + ",d=" + hmac_sha256_hex(api_key, message);
}

namespace {

struct signature_items {
  std::optional<std::string_view> stamp;
  std::optional<std::string_view> digest;
};

// The v= and d= items; nullopt when one is repeated.
std::optional<signature_items> items_of(std::string_view header) {
  signature_items out;
  while (!header.empty()) {
    auto comma = header.find(',');
    auto item = trim_spaces(header.substr(0, comma));
    header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
    auto key = item.substr(0, 2);
    if (key != "v=" && key != "d=")
      continue; // other items are ignored, so the scheme can grow
    auto& slot = key == "v=" ? out.stamp : out.digest;
    if (slot)
      return std::nullopt;
    slot = item.substr(2);
  }
  return out;
}

} // namespace

provider_b_check check_provider_b_signature(std::string_view header, std::string_view api_key,
                                            std::string_view body, int64_t now_ms) {
  auto items = items_of(header);
  if (!items)
    return provider_b_check::invalid;
  const auto& [stamp, digest] = *items;
  if (!stamp || !digest || stamp->empty() || stamp->size() > 15)
    return provider_b_check::invalid;
  int64_t ms = 0;
  auto [end, ec] = std::from_chars(stamp->data(), stamp->data() + stamp->size(), ms);
  if (ec != std::errc{} || end != stamp->data() + stamp->size() || ms < 0)
    return provider_b_check::invalid;
  std::string message{body};
  message.append(*stamp);
  if (!equal_constant_time(*digest, hmac_sha256_hex(api_key, message)))
    return provider_b_check::invalid;
  auto skew = now_ms > ms ? now_ms - ms : ms - now_ms;
  return skew <= provider_b_signature_tolerance_ms ? provider_b_check::valid
                                                   : provider_b_check::stale;
}

std::string provider_b_digest(std::string_view header) {
  auto items = items_of(header);
  return items && items->digest ? std::string{*items->digest} : std::string{};
}

} // namespace vcs::domain
