#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

// Authenticated encryption of stored secrets (provider credentials) with
// XChaCha20-Poly1305 (libsodium's crypto_aead_xchacha20poly1305_ietf_*),
// a random 24-byte nonce per message and associated data that binds a
// ciphertext to its owner (so it cannot be moved to another tenant's row;
// sealed_bindings.hpp).
class secret_box {
public:
  using key_bytes = std::array<uint8_t, 32>;

  // Seals with `key`; opens what `key` or `also_opens` sealed.
  explicit secret_box(const key_bytes& key,
                      std::optional<key_bytes> also_opens = std::nullopt) noexcept;

  struct sealed {
    std::string ciphertext; // raw bytes (message + 16-byte tag)
    std::string nonce;      // raw bytes, 24
  };

  sealed seal(std::string_view plaintext, std::string_view associated_data) const;

  // nullopt when the ciphertext, nonce or associated data do not match.
  std::optional<std::string> open(const sealed& box, std::string_view associated_data) const;

private:
  key_bytes key_;
  std::optional<key_bytes> also_opens_;
};

} // namespace vcs::domain
