#include "domain/password.hpp"

#include "domain/api_key.hpp"

#include <sodium.h>
#include <zxcvbn.h>

#include <stdexcept>

namespace vcs::domain {

std::optional<std::string> check_new_password(std::string_view password, std::string_view known) {
  if (password.size() < password_min_length || password.size() > password_max_length)
    return "Must be " + std::to_string(password_min_length) + " to " +
           std::to_string(password_max_length) + " characters.";
  const std::string text{password};
  const std::string word{known};
  const char* dictionary[] = {word.c_str(), nullptr};
  if (ZxcvbnMatch(text.c_str(), word.empty() ? nullptr : dictionary, nullptr) <
      password_min_entropy_bits)
    return "Too easy to guess: it is a common password, or close to one. Use a few uncommon "
           "words, or a password manager's.";
  return std::nullopt;
}

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
