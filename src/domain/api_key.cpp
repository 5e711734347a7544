#include "domain/api_key.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include <sodium.h>

namespace vcs::domain {
namespace {

constexpr std::string_view key_prefix = "vcs_";
constexpr std::size_t key_random_bytes = 24; // 192 bits, 48 hex digits
constexpr std::size_t visible_key_suffix = 4;

std::string to_hex(const unsigned char* bytes, std::size_t size) {
  std::string hex(size * 2 + 1, '\0'); // sodium_bin2hex writes a terminating NUL
  sodium_bin2hex(hex.data(), hex.size(), bytes, size);
  hex.pop_back();
  return hex;
}

template <std::size_t N> std::string random_hex() {
  std::array<unsigned char, N> bytes;
  randombytes_buf(bytes.data(), bytes.size());
  return to_hex(bytes.data(), bytes.size());
}

} // namespace

void init_crypto() {
  if (sodium_init() < 0)
    throw std::runtime_error("libsodium initialisation failed");
}

generated_api_key generate_api_key() {
  std::string key{key_prefix};
  key += random_hex<key_random_bytes>();
  auto hash = hash_api_key(key);
  auto masked = mask_api_key(key);
  return {std::move(key), std::move(hash), std::move(masked)};
}

std::string hash_api_key(std::string_view key) {
  std::array<unsigned char, crypto_generichash_BYTES> digest;
  crypto_generichash(digest.data(), digest.size(),
                     reinterpret_cast<const unsigned char*>(key.data()), key.size(), nullptr, 0);
  return to_hex(digest.data(), digest.size());
}

error too_many_api_keys() {
  return {errc::bad_request, "A tenant may hold at most " +
                                 std::to_string(max_api_keys_per_tenant) +
                                 " API keys; delete one first"};
}

std::string mask_api_key(std::string_view key) {
  std::string masked{key_prefix};
  masked += "****";
  masked += key.substr(key.size() - std::min(key.size(), visible_key_suffix));
  return masked;
}

bool constant_time_equal(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string random_hex_32() {
  return random_hex<32>();
}

} // namespace vcs::domain
