#include "domain/idempotency.hpp"

#include "domain/hex.hpp"

#include <sodium.h>

#include <array>
#include <cstdint>

namespace vcs::domain {

std::optional<error> check_idempotency_key(std::string_view key) {
  bool printable = !key.empty() && key.size() <= 255;
  for (char c : key)
    printable = printable && c >= 0x20 && c <= 0x7e;
  if (printable)
    return std::nullopt;
  return error{errc::bad_request, "Idempotency-Key must be 1 to 255 printable ASCII characters"};
}

std::string request_fingerprint(std::string_view caller, std::string_view method,
                                std::string_view target, std::string_view body) {
  crypto_hash_sha256_state state;
  crypto_hash_sha256_init(&state);
  // Lengths first, so no two requests concatenate to the same bytes.
  for (auto part : {caller, method, target, body}) {
    uint64_t size = part.size();
    crypto_hash_sha256_update(&state, reinterpret_cast<const unsigned char*>(&size), sizeof size);
    crypto_hash_sha256_update(&state, reinterpret_cast<const unsigned char*>(part.data()),
                              part.size());
  }
  std::array<unsigned char, crypto_hash_sha256_BYTES> digest{};
  crypto_hash_sha256_final(&state, digest.data());
  return to_hex({reinterpret_cast<const char*>(digest.data()), digest.size()});
}

bool accepts_idempotency_key(std::string_view method) noexcept {
  return method == "POST" || method == "PATCH" || method == "DELETE";
}

} // namespace vcs::domain
