#include "domain/provider_signature.hpp"

#include "domain/trim.hpp"
#include "domain/webhook_signature.hpp"

#include <charconv>
#include <optional>

namespace vcs::domain {

namespace {

std::string signed_message(const signature_scheme& scheme, std::string_view stamp,
                           std::string_view body) {
  std::string message;
  message.reserve(body.size() + stamp.size() + 1);
  if (scheme.stamp_first)
    message.append(stamp).append(".").append(body);
  else
    message.append(body).append(stamp);
  return message;
}

struct signature_items {
  std::optional<std::string_view> stamp;
  std::optional<std::string_view> digest;
};

// The time and digest items; nullopt when one is repeated.
std::optional<signature_items> items_of(const signature_scheme& scheme, std::string_view header) {
  signature_items out;
  while (!header.empty()) {
    auto comma = header.find(',');
    auto item = trim_spaces(header.substr(0, comma));
    header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
    std::optional<std::string_view>* slot = nullptr;
    std::size_t skip = 0;
    if (item.starts_with(scheme.stamp_item)) {
      slot = &out.stamp;
      skip = scheme.stamp_item.size();
    } else if (item.starts_with(scheme.digest_item)) {
      slot = &out.digest;
      skip = scheme.digest_item.size();
    } else {
      continue; // other items are ignored, so the scheme can grow
    }
    if (*slot)
      return std::nullopt;
    *slot = item.substr(skip);
  }
  return out;
}

} // namespace

std::string sign_provider(const signature_scheme& scheme, std::string_view key,
                          std::string_view body, int64_t unix_ms) {
  auto stamp = std::to_string(unix_ms / scheme.ms_per_unit);
  std::string out{scheme.stamp_item};
  out.append(stamp).append(",").append(scheme.digest_item);
  return out.append(hmac_sha256_hex(key, signed_message(scheme, stamp, body)));
}

signature_check check_provider_signature(const signature_scheme& scheme, std::string_view header,
                                         std::string_view key, std::string_view body,
                                         int64_t now_ms) {
  auto items = items_of(scheme, header);
  if (!items)
    return signature_check::invalid;
  const auto& [stamp, digest] = *items;
  if (!stamp || !digest || stamp->empty() || stamp->size() > 15)
    return signature_check::invalid;
  int64_t units = 0;
  auto [end, ec] = std::from_chars(stamp->data(), stamp->data() + stamp->size(), units);
  if (ec != std::errc{} || end != stamp->data() + stamp->size() || units < 0)
    return signature_check::invalid;
  if (!equal_constant_time(*digest, hmac_sha256_hex(key, signed_message(scheme, *stamp, body))))
    return signature_check::invalid;
  auto ms = units * scheme.ms_per_unit;
  bool in_time =
      ms <= now_ms ? now_ms - ms <= scheme.max_age_ms : ms - now_ms <= scheme.max_ahead_ms;
  return in_time ? signature_check::valid : signature_check::stale;
}

std::string signature_digest(const signature_scheme& scheme, std::string_view header) {
  auto items = items_of(scheme, header);
  return items && items->digest ? std::string{*items->digest} : std::string{};
}

} // namespace vcs::domain
