#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace soci {
class session;
}

namespace vcs::storage {

struct stored_response {
  unsigned status = 200;
  std::string content_type;
  std::string body;
};

// What claiming a key found: the key is now this request's (`token`), a
// finished request's response to replay, the key taken by another request
// (`mismatch`), or the same request still running elsewhere.
struct idempotency_claim {
  enum class outcome { claimed, replay, mismatch, in_progress };
  outcome result = outcome::claimed;
  std::string token;
  stored_response response;
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

// Deletes keys past the retention period; answers how many.
int64_t purge_idempotency_keys(soci::session& sql);

} // namespace vcs::storage
