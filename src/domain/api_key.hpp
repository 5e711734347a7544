#pragma once

#include "domain/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace vcs::domain {

// Must run once before any other function here (libsodium initialisation);
// safe to call repeatedly and from several threads.
void init_crypto();

struct generated_api_key {
  std::string key;        // shown once, never stored
  std::string hash;       // stored: hash_api_key(key)
  std::string masked_key; // stored and listed: mask_api_key(key)
};

// "vcs_" followed by 48 lower-case hex digits (192 random bits from
// libsodium's randombytes_buf).
generated_api_key generate_api_key();

// 64 lower-case hex digits of BLAKE2b-256 (crypto_generichash) of the key. A
// fast hash is right here: keys carry 192 random bits, so no dictionary
// attack applies and lookups stay cheap.
std::string hash_api_key(std::string_view key);

// "vcs_****" followed by the key's last four characters.
std::string mask_api_key(std::string_view key);

// Keys one tenant may hold at once (made by it or an operator).
inline constexpr int64_t max_api_keys_per_tenant = 1'000;
// 400 for a key beyond that.
error too_many_api_keys();

// Constant-time comparison (sodium_memcmp); false when lengths differ.
bool constant_time_equal(std::string_view a, std::string_view b) noexcept;

// 64 lower-case hex digits from randombytes_buf (32 bytes), for generated
// operator tokens and secret keys.
std::string random_hex_32();

} // namespace vcs::domain
