#include "domain/sodium_support.hpp"

#include <stdexcept>

#include <sodium.h>

namespace vcs::domain {

void ensure_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready)
    throw std::runtime_error("libsodium initialisation failed");
}

std::string hmac_sha256(std::string_view key, std::initializer_list<std::string_view> parts) {
  ensure_sodium();
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, bytes_of(key), key.size());
  for (const auto part : parts)
    crypto_auth_hmacsha256_update(&state, bytes_of(part), part.size());
  std::string mac(crypto_auth_hmacsha256_BYTES, '\0');
  crypto_auth_hmacsha256_final(&state, reinterpret_cast<unsigned char*>(mac.data()));
  sodium_memzero(&state, sizeof state);
  return mac;
}

} // namespace vcs::domain
