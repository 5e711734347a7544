#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

// Client user passwords: 8 to 128 characters.
inline constexpr std::size_t password_min_length = 8;
inline constexpr std::size_t password_max_length = 128;

// The least a new password's guess count may be, as zxcvbn estimates it
// (log2 of guesses): 2^20, about a million guesses, zxcvbn's "safe from
// throttled online guessing". "password1" (3 bits), "Password123!" (8) and
// "qwertyuiop" (11) fall short; "plum orchard 1" (45) does not.
inline constexpr double password_min_entropy_bits = 20.0;

// Why a password someone chooses is refused (its length, or too easy to
// guess: a common or breached password, a keyboard walk, a date, a word
// with digits, or one of `known` such as the account's e-mail), in words
// fit to show beside the field; nullopt when it is fine.
std::optional<std::string> check_new_password(std::string_view password,
                                              std::string_view known = {});

// argon2id (libsodium crypto_pwhash_str, interactive limits): the encoded
// hash with its salt and parameters. Deliberately slow; call it off the
// actor scheduler threads.
std::string hash_password(std::string_view password);

// Whether `password` matches `hash` (hash_password's output). Without a
// hash it checks against a hash of nothing anyone can send, so a sign-in to
// an unknown account takes as long as one to a known account.
bool verify_password(const std::optional<std::string>& hash, std::string_view password);

} // namespace vcs::domain
