#include "domain/webhook_signature.hpp"

#include "domain/base64.hpp"
#include "domain/hex.hpp"
#include "domain/sodium_support.hpp"
#include "domain/standard_webhook.hpp"
#include "domain/timestamp.hpp"
#include "domain/trim.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <vector>

#include <sodium.h>

namespace vcs::domain {
namespace {

constexpr std::size_t secret_random_bytes = 32;
constexpr std::size_t signature_hex_size = crypto_auth_hmacsha256_BYTES * 2;

// Lower-case hex of HMAC-SHA256(secret, "<unix_seconds>.<body>").
std::string signature_hex(std::string_view secret, int64_t unix_seconds, std::string_view body) {
  const std::string prefix = std::to_string(unix_seconds) + ".";
  return to_hex(hmac_sha256(secret, {prefix, body}));
}

bool is_lower_hex(std::string_view text) noexcept {
  for (const char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  return true;
}

struct parsed_header {
  int64_t unix_seconds = 0;
  std::vector<std::string_view> signatures;
};

std::optional<parsed_header> parse_header(std::string_view header) {
  std::optional<int64_t> unix_seconds;
  parsed_header parsed;
  for (std::size_t start = 0; start <= header.size();) {
    const std::size_t comma = std::min(header.find(',', start), header.size());
    const std::string_view item = trim_spaces(header.substr(start, comma - start));
    start = comma + 1;
    const std::size_t equals = item.find('=');
    if (equals == std::string_view::npos || equals == 0)
      return std::nullopt;
    const std::string_view key = item.substr(0, equals);
    const std::string_view value = item.substr(equals + 1);
    if (key == "t") {
      if (unix_seconds)
        return std::nullopt; // which one was signed would be ambiguous
      unix_seconds = parse_unix_seconds(value);
      if (!unix_seconds)
        return std::nullopt;
    } else if (key == "v1") {
      if (value.size() != signature_hex_size || !is_lower_hex(value))
        return std::nullopt;
      parsed.signatures.push_back(value);
    }
  }
  if (!unix_seconds || parsed.signatures.empty())
    return std::nullopt;
  parsed.unix_seconds = *unix_seconds;
  return parsed;
}

} // namespace

std::string sign_webhook(const std::vector<std::string>& secrets, int64_t unix_seconds,
                         std::string_view body) {
  std::string out = "t=" + std::to_string(unix_seconds);
  for (const auto& secret : secrets)
    out += ",v1=" + signature_hex(secret, unix_seconds, body);
  return out;
}

bool verify_webhook(std::string_view header, std::string_view secret, std::string_view body,
                    int64_t now_unix, int64_t tolerance_seconds) {
  const auto parsed = parse_header(header);
  if (!parsed || tolerance_seconds < 0)
    return false;
  const int64_t age = now_unix - parsed->unix_seconds;
  if (age > tolerance_seconds || age < -tolerance_seconds)
    return false;
  const std::string expected = signature_hex(secret, parsed->unix_seconds, body);
  bool match = false;
  // Every candidate is compared, so timing does not tell which one matched.
  for (const std::string_view candidate : parsed->signatures)
    match |= sodium_memcmp(candidate.data(), expected.data(), expected.size()) == 0;
  return match;
}

std::string new_webhook_secret() {
  ensure_sodium();
  std::array<unsigned char, secret_random_bytes> bytes;
  randombytes_buf(bytes.data(), bytes.size());
  std::string secret{webhook_secret_prefix};
  secret += to_base64(std::string_view{reinterpret_cast<const char*>(bytes.data()), bytes.size()});
  sodium_memzero(bytes.data(), bytes.size());
  return secret;
}

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
  return to_hex(hmac_sha256(key, {message}));
}

bool equal_constant_time(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

} // namespace vcs::domain
