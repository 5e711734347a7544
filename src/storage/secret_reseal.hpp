#pragma once

#include "domain/secret_box.hpp"

#include <optional>

namespace soci {
class session;
}

namespace vcs::storage {

// Seals every stored secret again with `box` (voice provider credentials,
// webhook signing secrets, kept Idempotency-Key answers), once per database:
// the first call records it in key_changes and later ones do nothing
// (nullopt). A secret `box` cannot open (sealed under another service key)
// is left as it is. Returns how many were sealed again.
std::optional<int> reseal_stored_secrets(soci::session& sql, const domain::secret_box& box);

} // namespace vcs::storage
