#pragma once

// libsodium as the domain uses it: initialised once before first use, and
// text passed as its byte type.

#include <initializer_list>
#include <string>
#include <string_view>

namespace vcs::domain {

// sodium_init is idempotent and thread-safe; this runs it once and throws
// when it fails.
void ensure_sodium();

inline const unsigned char* bytes_of(std::string_view text) noexcept {
  return reinterpret_cast<const unsigned char*>(text.data());
}

// The raw 32-byte HMAC-SHA256 of the parts, concatenated, under a key of
// any length (crypto_auth_hmacsha256 itself wants exactly 32 bytes).
std::string hmac_sha256(std::string_view key, std::initializer_list<std::string_view> parts);

} // namespace vcs::domain
