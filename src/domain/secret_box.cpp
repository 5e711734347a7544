#include "domain/secret_box.hpp"

#include "domain/sodium_support.hpp"

#include <stdexcept>

#include <sodium.h>

namespace vcs::domain {
namespace {

constexpr std::size_t nonce_size = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
constexpr std::size_t tag_size = crypto_aead_xchacha20poly1305_ietf_ABYTES;
static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES ==
              std::tuple_size_v<secret_box::key_bytes>);

} // namespace

secret_box::secret_box(const key_bytes& key, std::optional<key_bytes> also_opens) noexcept
    : key_(key), also_opens_(also_opens) {}

secret_box::sealed secret_box::seal(std::string_view plaintext,
                                    std::string_view associated_data) const {
  ensure_sodium();
  sealed box{std::string(plaintext.size() + tag_size, '\0'), std::string(nonce_size, '\0')};
  randombytes_buf(box.nonce.data(), box.nonce.size());
  unsigned long long written = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(
      reinterpret_cast<unsigned char*>(box.ciphertext.data()), &written, bytes_of(plaintext),
      plaintext.size(), bytes_of(associated_data), associated_data.size(), nullptr,
      bytes_of(box.nonce), key_.data());
  box.ciphertext.resize(written);
  return box;
}

std::optional<std::string> secret_box::open(const sealed& box,
                                            std::string_view associated_data) const {
  ensure_sodium();
  if (box.nonce.size() != nonce_size || box.ciphertext.size() < tag_size)
    return std::nullopt;
  std::string plaintext(box.ciphertext.size() - tag_size, '\0');
  for (const auto* key : {&key_, also_opens_ ? &*also_opens_ : nullptr}) {
    unsigned long long written = 0;
    if (key && crypto_aead_xchacha20poly1305_ietf_decrypt(
                   reinterpret_cast<unsigned char*>(plaintext.data()), &written, nullptr,
                   bytes_of(box.ciphertext), box.ciphertext.size(), bytes_of(associated_data),
                   associated_data.size(), bytes_of(box.nonce), key->data()) == 0) {
      plaintext.resize(written);
      return plaintext;
    }
  }
  return std::nullopt;
}

} // namespace vcs::domain
