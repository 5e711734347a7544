#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

// Client user passwords: 8 to 128 characters.
inline constexpr std::size_t password_min_length = 8;
inline constexpr std::size_t password_max_length = 128;

// argon2id (libsodium crypto_pwhash_str, interactive limits): the encoded
// hash with its salt and parameters. Deliberately slow; call it off the
// actor scheduler threads.
std::string hash_password(std::string_view password);

// Whether `password` matches `hash` (hash_password's output). Without a
// hash it checks against a hash of nothing anyone can send, so a sign-in to
// an unknown account takes as long as one to a known account.
bool verify_password(const std::optional<std::string>& hash, std::string_view password);

} // namespace vcs::domain
