#include "storage/idempotency_repository.hpp"

#include "domain/hex.hpp"
#include "domain/idempotency.hpp"
#include "storage/prepared.hpp"

#include <string>

namespace vcs::storage {

namespace {

static_assert(domain::idempotency_retention == std::chrono::hours(24),
              "the statements below spell the retention period");

// ON CONFLICT ... DO UPDATE locks the existing row even when its WHERE is
// false, so two requests with one key are ordered: the second sees the
// first's claim.
constexpr prepared_statement claim_stmt{
    "vcs_idem_claim",
    "INSERT INTO idempotency_keys AS k (tenant_id, idem_key, fingerprint, claim_token) "
    "VALUES ($1, $2, $3, gen_random_uuid()) "
    "ON CONFLICT (tenant_id, idem_key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, "
    "claim_token = EXCLUDED.claim_token, status = NULL, content_type = NULL, "
    "response_body = NULL, response_ciphertext = NULL, response_nonce = NULL, created_at = now(), "
    "claimed_at = now(), completed_at = NULL "
    "WHERE k.created_at < now() - interval '24 hours' "
    "OR (k.status IS NULL AND k.fingerprint = EXCLUDED.fingerprint "
    "AND k.claimed_at < now() - make_interval(secs => $4::integer)) "
    "RETURNING k.claim_token::text"};

constexpr prepared_statement find_stmt{
    "vcs_idem_find",
    "SELECT fingerprint, status, content_type, response_body, encode(response_ciphertext, 'hex'), "
    "encode(response_nonce, 'hex') FROM idempotency_keys WHERE tenant_id = $1 AND idem_key = $2"};

constexpr prepared_statement complete_stmt{
    "vcs_idem_complete",
    "UPDATE idempotency_keys SET status = $4, content_type = $5, "
    "response_ciphertext = decode($6, 'hex'), response_nonce = decode($7, 'hex'), "
    "completed_at = now() "
    "WHERE tenant_id = $1 AND idem_key = $2 AND claim_token = $3::uuid AND status IS NULL"};

constexpr prepared_statement release_stmt{
    "vcs_idem_release", "DELETE FROM idempotency_keys WHERE tenant_id = $1 AND idem_key = $2 "
                        "AND claim_token = $3::uuid AND status IS NULL"};

} // namespace

idempotency_claim claim_idempotency_key(soci::session& sql, int64_t tenant_id, std::string_view key,
                                        std::string_view fingerprint,
                                        std::chrono::seconds abandon_after) {
  // A claim released between the two statements leaves nothing to find:
  // claim again.
  for (int attempt = 0;; ++attempt) {
    auto claimed = execute(sql, claim_stmt, {tenant_id, key, fingerprint, abandon_after.count()});
    if (claimed.size() == 1)
      return {idempotency_claim::outcome::claimed, std::string{claimed.text(0, 0)}, {}};
    auto found = execute(sql, find_stmt, {tenant_id, key});
    if (found.size() == 0 && attempt < 2)
      continue;
    idempotency_claim c;
    if (found.size() == 0 || found.text(0, 0) != fingerprint) {
      c.result = found.size() == 0 ? idempotency_claim::outcome::in_progress
                                   : idempotency_claim::outcome::mismatch;
    } else if (found.is_null(0, 1)) {
      c.result = idempotency_claim::outcome::in_progress;
    } else {
      c.result = idempotency_claim::outcome::replay;
      c.response.status = static_cast<unsigned>(found.int64(0, 1));
      c.response.content_type = std::string{found.text(0, 2)};
      c.response.sealed_body = found.opt_sealed(0, 4, 5);
      if (!c.response.sealed_body)
        c.response.plain_body = std::string{found.text(0, 3)};
    }
    return c;
  }
}

void complete_idempotency_key(soci::session& sql, int64_t tenant_id, std::string_view key,
                              std::string_view token, const stored_response& response) {
  execute(sql, complete_stmt,
          {tenant_id, key, token, response.status, response.content_type,
           domain::to_hex(response.body.ciphertext), domain::to_hex(response.body.nonce)});
}

void release_idempotency_key(soci::session& sql, int64_t tenant_id, std::string_view key,
                             std::string_view token) {
  execute(sql, release_stmt, {tenant_id, key, token});
}

} // namespace vcs::storage
