#include "domain/password.hpp"

#include "domain/api_key.hpp"

#include <sodium.h>

#include <stdexcept>

namespace vcs::domain {

std::string hash_password(std::string_view password) {
  init_crypto();
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str(out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                        crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
    throw std::runtime_error("password hashing ran out of memory");
  return out;
}

bool verify_password(const std::optional<std::string>& hash, std::string_view password) {
  // Longer than password_max_length: no request can match it.
  static const std::string nobody = hash_password(std::string(password_max_length + 1, 'x'));
  const auto& against = hash ? *hash : nobody;
  const bool matches =
      crypto_pwhash_str_verify(against.c_str(), password.data(), password.size()) == 0;
  return hash && matches;
}

} // namespace vcs::domain
