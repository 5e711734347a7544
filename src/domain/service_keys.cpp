#include "domain/service_keys.hpp"

#include "domain/hex.hpp"
#include "domain/sodium_support.hpp"

#include <sodium.h>

#include <algorithm>

namespace vcs::domain {
namespace {

constexpr char context[crypto_kdf_CONTEXTBYTES + 1] = "vcs-keys";
// Subkey ids: never reuse one for another purpose.
constexpr std::uint64_t sealing_id = 1;
constexpr std::uint64_t callback_signing_id = 2;

secret_box::key_bytes derive(const secret_box::key_bytes& master, std::uint64_t id) {
  static_assert(crypto_kdf_KEYBYTES == std::tuple_size_v<secret_box::key_bytes>);
  secret_box::key_bytes out{};
  crypto_kdf_derive_from_key(out.data(), out.size(), id, context, master.data());
  return out;
}

} // namespace

std::optional<service_keys> service_keys::from_hex(std::string_view hex) {
  const auto bytes = domain::from_hex(hex);
  if (!bytes || bytes->size() != std::tuple_size_v<secret_box::key_bytes>)
    return std::nullopt;
  ensure_sodium();
  service_keys k;
  std::copy(bytes->begin(), bytes->end(), k.legacy.begin());
  k.sealing = derive(k.legacy, sealing_id);
  const auto signing = derive(k.legacy, callback_signing_id);
  k.callback_signing.assign(signing.begin(), signing.end());
  // The callback secrets were signed with the hex text itself.
  k.legacy_callback_signing = std::string{hex};
  return k;
}

} // namespace vcs::domain
