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

} // namespace vcs::domain
