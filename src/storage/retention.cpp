#include "storage/retention.hpp"

#include "domain/idempotency.hpp"
#include "storage/prepared.hpp"

namespace vcs::storage {

namespace {

// Each statement: $1 seconds, $2 rows at most; oldest first along an index of
// migration 0026 (or 0003 for idempotency keys), so a batch reads only what
// it deletes. One node purges at a time (each statement's advisory lock, on
// an arbitrary constant that migrations, the billing sweep and the lead
// counters do not use): two would wait on each other's rows.
#define VCS_LOCKED "WITH lock AS (SELECT pg_try_advisory_xact_lock(7216100004) AS ok), "
#define VCS_DUE "(SELECT ok FROM lock) AND "
#define VCS_CUTOFF "now() - $1::bigint * interval '1 second'"

constexpr prepared_statement calls_stmt{
    "vcs_purge_calls", VCS_LOCKED
    "gone AS (DELETE FROM calls WHERE id IN (SELECT id FROM calls WHERE " VCS_DUE "usage_recorded "
    "AND ended_at < " VCS_CUTOFF " ORDER BY ended_at LIMIT $2::int) RETURNING 1) "
    "SELECT count(*) FROM gone"};

constexpr prepared_statement deliveries_stmt{
    "vcs_purge_deliveries", VCS_LOCKED
    "gone AS (DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM "
    "webhook_deliveries WHERE " VCS_DUE "status <> 'pending' AND updated_at < " VCS_CUTOFF
    " ORDER BY updated_at LIMIT $2::int) RETURNING 1) SELECT count(*) FROM gone"};

constexpr prepared_statement events_stmt{
    "vcs_purge_events",
    VCS_LOCKED "gone AS (DELETE FROM events e USING (SELECT tenant_id, txid, id FROM events "
               "WHERE " VCS_DUE "created_at < " VCS_CUTOFF " ORDER BY created_at LIMIT $2::int) x "
               "WHERE e.tenant_id = x.tenant_id AND e.txid = x.txid AND e.id = x.id RETURNING 1) "
               "SELECT count(*) FROM gone"};

// A job's rejections go first, a batch at a time, then the job once it has
// none: a job of 100,000 rejections is never one long delete.
constexpr prepared_statement rejections_stmt{
    "vcs_purge_import_rejections", VCS_LOCKED
    "gone AS (DELETE FROM lead_import_rejections r USING (SELECT r.job_id, "
    "r.row_index FROM lead_import_jobs j JOIN lead_import_rejections r ON r.job_id = j.id "
    "WHERE " VCS_DUE "j.finished_at < " VCS_CUTOFF " ORDER BY j.finished_at LIMIT $2::int) x "
    "WHERE r.job_id = x.job_id AND r.row_index = x.row_index RETURNING 1) "
    "SELECT count(*) FROM gone"};

constexpr prepared_statement imports_stmt{
    "vcs_purge_imports",
    VCS_LOCKED "gone AS (DELETE FROM lead_import_jobs WHERE id IN (SELECT j.id FROM "
               "lead_import_jobs j WHERE " VCS_DUE "j.finished_at < " VCS_CUTOFF
               " AND NOT EXISTS (SELECT 1 FROM lead_import_rejections r "
               "WHERE r.job_id = j.id) ORDER BY j.finished_at LIMIT $2::int) RETURNING 1) "
               "SELECT count(*) FROM gone"};

#undef VCS_CUTOFF

static_assert(domain::idempotency_retention == std::chrono::hours(24),
              "idempotency_stmt spells the retention period");

// A key answers its retries for 24 hours.
constexpr prepared_statement idempotency_stmt{
    "vcs_purge_idempotency_keys", VCS_LOCKED
    "gone AS (DELETE FROM idempotency_keys k USING (SELECT tenant_id, idem_key "
    "FROM idempotency_keys WHERE " VCS_DUE
    "created_at < now() - interval '24 hours' ORDER BY created_at "
    "LIMIT $1::int) x WHERE k.tenant_id = x.tenant_id AND k.idem_key = x.idem_key RETURNING 1) "
    "SELECT count(*) FROM gone"};

#undef VCS_DUE
#undef VCS_LOCKED

int64_t purge(soci::session& sql, const prepared_statement& stmt, std::chrono::seconds kept,
              int32_t batch) {
  if (kept.count() <= 0)
    return 0;
  return execute(sql, stmt, {static_cast<int64_t>(kept.count()), batch}).int64(0, 0);
}

} // namespace

purged_rows purge_expired(soci::session& sql, const retention_policy& policy, int32_t batch) {
  purged_rows out;
  out.calls = purge(sql, calls_stmt, policy.calls, batch);
  out.deliveries = purge(sql, deliveries_stmt, policy.deliveries, batch);
  out.events = purge(sql, events_stmt, policy.events, batch);
  out.import_rejections = purge(sql, rejections_stmt, policy.imports, batch);
  out.imports = purge(sql, imports_stmt, policy.imports, batch);
  out.idempotency_keys = execute(sql, idempotency_stmt, {batch}).int64(0, 0);
  return out;
}

} // namespace vcs::storage
