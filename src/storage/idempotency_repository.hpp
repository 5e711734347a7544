#pragma once

#include "domain/secret_box.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace soci {
class session;
}

namespace vcs::storage {

// A response kept for replay. Its body is sealed by the caller (bound to
// tenant and key): it may hold a secret shown once or personal data.
struct stored_response {
  unsigned status = 200;
  std::string content_type;
  domain::secret_box::sealed body;
};

// A kept response as found: sealed, or (stored before sealing began, within
// the retention period) in plain text.
struct found_response {
  unsigned status = 200;
  std::string content_type;
  std::optional<domain::secret_box::sealed> sealed_body;
  std::string plain_body;
};

// What claiming a key found: the key is now this request's (`token`), a
// finished request's response to replay, the key taken by another request
// (`mismatch`), or the same request still running elsewhere.
struct idempotency_claim {
  enum class outcome { claimed, replay, mismatch, in_progress };
  outcome result = outcome::claimed;
  std::string token;
  found_response response;
};

// Claims (tenant, key) for a request with `fingerprint`. A key older than the
// retention period is free again; an unfinished claim older than
// `abandon_after` with the same fingerprint is taken over.
idempotency_claim claim_idempotency_key(soci::session& sql, int64_t tenant_id, std::string_view key,
                                        std::string_view fingerprint,
                                        std::chrono::seconds abandon_after);

// Stores the response of the claim `token` (no-op when the claim was taken
// over meanwhile).
void complete_idempotency_key(soci::session& sql, int64_t tenant_id, std::string_view key,
                              std::string_view token, const stored_response& response);

// Deletes the unfinished claim `token`, so that a retry runs again.
void release_idempotency_key(soci::session& sql, int64_t tenant_id, std::string_view key,
                             std::string_view token);

} // namespace vcs::storage
