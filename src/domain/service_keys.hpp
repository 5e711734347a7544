#pragma once

// The keys derived from the service key (VCS_SECRET_KEY), one per purpose
// (libsodium crypto_kdf, context "vcs-keys"), so no key does two jobs and a
// key exposed for one purpose tells nothing of another.

#include "domain/secret_box.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

struct service_keys {
  // Seals stored secrets (secret_box).
  secret_box::key_bytes sealing{};
  // Signs the callback secrets live providers send back (HMAC-SHA-256).
  std::string callback_signing;
  // The service key itself, which sealed and signed both before: only
  // opened or accepted, never used for anything new (secrets sealed by an
  // older node during a rolling upgrade, callbacks of calls placed before).
  secret_box::key_bytes legacy{};
  std::string legacy_callback_signing;

  // From 64 hex digits; nullopt otherwise.
  static std::optional<service_keys> from_hex(std::string_view hex);

  // Seals with `sealing`; opens what `legacy` sealed too.
  secret_box box() const noexcept { return secret_box{sealing, legacy}; }
};

} // namespace vcs::domain
