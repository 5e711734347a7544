#include "domain/standard_webhook.hpp"

#include "domain/base64.hpp"
#include "domain/sodium_support.hpp"
#include "domain/timestamp.hpp"

#include <sodium.h>

namespace vcs::domain {
namespace {

constexpr std::string_view version_prefix = "v1,";

std::string mac_of(std::string_view key, std::string_view id, int64_t unix_seconds,
                   std::string_view body) {
  const std::string prefix = std::string{id} + "." + std::to_string(unix_seconds) + ".";
  return hmac_sha256(key, {prefix, body});
}

} // namespace

std::optional<std::string> standard_webhook_key(std::string_view secret) {
  if (secret.starts_with(webhook_secret_prefix))
    secret.remove_prefix(webhook_secret_prefix.size());
  auto key = from_base64(secret);
  if (!key || key->empty())
    return std::nullopt;
  return key;
}

std::string standard_webhook_signature(std::string_view key, std::string_view id,
                                       int64_t unix_seconds, std::string_view body) {
  return std::string{version_prefix} + to_base64(mac_of(key, id, unix_seconds, body));
}

std::string standard_webhook_signatures(const std::vector<std::string>& keys, std::string_view id,
                                        int64_t unix_seconds, std::string_view body) {
  std::string out;
  for (const auto& key : keys) {
    if (!out.empty())
      out += ' ';
    out += standard_webhook_signature(key, id, unix_seconds, body);
  }
  return out;
}

bool verify_standard_webhook(std::string_view secret, std::string_view id,
                             std::string_view timestamp, std::string_view signatures,
                             std::string_view body, int64_t now_unix, int64_t tolerance_seconds) {
  const auto key = standard_webhook_key(secret);
  const auto unix_seconds = parse_unix_seconds(timestamp);
  if (!key || !unix_seconds || id.empty() || tolerance_seconds < 0)
    return false;
  const int64_t age = now_unix - *unix_seconds;
  if (age > tolerance_seconds || age < -tolerance_seconds)
    return false;
  const auto expected = mac_of(*key, id, *unix_seconds, body);
  bool match = false;
  for (std::size_t start = 0; start < signatures.size();) {
    const std::size_t space = std::min(signatures.find(' ', start), signatures.size());
    const std::string_view entry = signatures.substr(start, space - start);
    start = space + 1;
    if (entry.substr(0, version_prefix.size()) != version_prefix)
      continue;
    const auto mac = from_base64(entry.substr(version_prefix.size()));
    // Every candidate is compared, so timing does not tell which one matched.
    if (mac && mac->size() == expected.size())
      match |= sodium_memcmp(mac->data(), expected.data(), expected.size()) == 0;
  }
  return match;
}

} // namespace vcs::domain
