#include "domain/webhook_signature.hpp"

#include "domain/hex.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <vector>

#include <sodium.h>

namespace vcs::domain {
namespace {

constexpr std::string_view secret_prefix = "whsec_";
constexpr std::size_t secret_random_bytes = 32;
constexpr std::size_t signature_hex_size = crypto_auth_hmacsha256_BYTES * 2;
// More digits could overflow int64_t; real unix times have 10.
constexpr std::size_t max_timestamp_digits = 18;

// sodium_init is idempotent and thread-safe; the static runs it once.
void ensure_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready)
    throw std::runtime_error("libsodium initialisation failed");
}

const unsigned char* bytes_of(std::string_view text) noexcept {
  return reinterpret_cast<const unsigned char*>(text.data());
}

// Lower-case hex of HMAC-SHA256(secret, "<unix_seconds>.<body>"). The
// init/update/final API takes a key of any length (crypto_auth_hmacsha256
// wants exactly 32 bytes).
std::string signature_hex(std::string_view secret, int64_t unix_seconds, std::string_view body) {
  const std::string prefix = std::to_string(unix_seconds) + ".";
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, bytes_of(secret), secret.size());
  crypto_auth_hmacsha256_update(&state, bytes_of(prefix), prefix.size());
  crypto_auth_hmacsha256_update(&state, bytes_of(body), body.size());
  std::array<unsigned char, crypto_auth_hmacsha256_BYTES> mac;
  crypto_auth_hmacsha256_final(&state, mac.data());
  sodium_memzero(&state, sizeof state);
  return to_hex(std::string_view{reinterpret_cast<const char*>(mac.data()), mac.size()});
}

std::string_view trim_spaces(std::string_view text) noexcept {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos)
    return {};
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

std::optional<int64_t> parse_unix_seconds(std::string_view text) noexcept {
  if (text.empty() || text.size() > max_timestamp_digits)
    return std::nullopt;
  int64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9')
      return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
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

std::string sign_webhook(std::string_view secret, int64_t unix_seconds, std::string_view body) {
  return "t=" + std::to_string(unix_seconds) + ",v1=" + signature_hex(secret, unix_seconds, body);
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
  std::string secret{secret_prefix};
  secret += to_hex(std::string_view{reinterpret_cast<const char*>(bytes.data()), bytes.size()});
  sodium_memzero(bytes.data(), bytes.size());
  return secret;
}

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
  ensure_sodium();
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, bytes_of(key), key.size());
  crypto_auth_hmacsha256_update(&state, bytes_of(message), message.size());
  std::array<unsigned char, crypto_auth_hmacsha256_BYTES> mac;
  crypto_auth_hmacsha256_final(&state, mac.data());
  sodium_memzero(&state, sizeof state);
  return to_hex(std::string_view{reinterpret_cast<const char*>(mac.data()), mac.size()});
}

bool equal_constant_time(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

} // namespace vcs::domain
