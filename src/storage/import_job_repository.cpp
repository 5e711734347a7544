#include "storage/import_job_repository.hpp"

#include "storage/nullable.hpp"

#include <soci/soci.h>

#include <stdexcept>

namespace vcs::storage {

namespace {

constexpr const char* insert_sql =
    "INSERT INTO lead_import_jobs (tenant_id, campaign_id, payload, accepted, invalid, status, "
    "finished_at) VALUES (:t, :c, :p::jsonb, :a, :i, "
    "CASE WHEN :a2 = :i2 THEN 'done' ELSE 'queued' END, "
    "CASE WHEN :a3 = :i3 THEN now() END) RETURNING id";

constexpr const char* find_sql =
    "SELECT id, campaign_id, status, accepted, invalid, inserted, duplicates, "
    "accepted - invalid - next_index, error, created_at, finished_at FROM lead_import_jobs "
    "WHERE tenant_id = :t AND campaign_id = :c AND id = :j";

// A claim is free, ours, or stale (its node stopped heartbeating).
constexpr const char* claimable = "status IN ('queued', 'running') AND (claimed_by IS NULL OR "
                                  "claimed_by = :me OR claimed_at < now() - make_interval(secs "
                                  "=> :stale))";

const std::string lock_sql =
    std::string{"SELECT tenant_id, campaign_id, next_index, "
                "accepted - invalid FROM lead_import_jobs WHERE id = :j AND "} +
    claimable + " FOR UPDATE";

constexpr const char* claim_sql =
    "UPDATE lead_import_jobs SET status = 'running', claimed_at = now(), "
    "attempts = attempts + CASE WHEN claimed_by IS DISTINCT FROM :me THEN 1 ELSE 0 END, "
    "claimed_by = :me2 WHERE id = :j";

constexpr const char* slice_sql =
    "SELECT jsonb_path_query_array(payload, ('$[' || :from || ' to ' || :to || ']')::jsonpath) "
    "FROM lead_import_jobs WHERE id = :j";

constexpr const char* complete_sql =
    "UPDATE lead_import_jobs SET next_index = next_index + :n, inserted = inserted + :ins, "
    "duplicates = duplicates + :dup, claimed_at = now(), "
    "status = CASE WHEN next_index + :n2 >= accepted - invalid THEN 'done' ELSE 'running' END, "
    "finished_at = CASE WHEN next_index + :n3 >= accepted - invalid THEN now() END "
    "WHERE id = :j RETURNING status";

const std::string pending_sql =
    std::string{"SELECT id, tenant_id, campaign_id FROM lead_import_jobs WHERE "} + claimable +
    " ORDER BY created_at, id LIMIT :n";

} // namespace

int64_t insert_import_job(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                          const std::string& payload_json, int32_t accepted, int32_t invalid) {
  int64_t id = 0;
  sql << insert_sql, soci::use(tenant_id), soci::use(campaign_id), soci::use(payload_json),
      soci::use(accepted), soci::use(invalid), soci::use(accepted), soci::use(invalid),
      soci::use(accepted), soci::use(invalid), soci::into(id);
  return id;
}

std::optional<domain::import_job> find_import_job(soci::session& sql, int64_t tenant_id,
                                                  int64_t campaign_id, int64_t job_id) {
  domain::import_job j;
  std::string error, created, finished;
  soci::indicator error_ind = soci::i_null, finished_ind = soci::i_null;
  soci::statement st =
      (sql.prepare << find_sql, soci::use(tenant_id), soci::use(campaign_id), soci::use(job_id),
       soci::into(j.id), soci::into(j.campaign_id), soci::into(j.status), soci::into(j.accepted),
       soci::into(j.invalid), soci::into(j.inserted), soci::into(j.duplicates),
       soci::into(j.pending), soci::into(error, error_ind), soci::into(created),
       soci::into(finished, finished_ind));
  if (!st.execute(true))
    return std::nullopt;
  if (error_ind == soci::i_ok)
    j.error = error;
  j.created_at = timestamp_column(created);
  if (finished_ind == soci::i_ok)
    j.finished_at = timestamp_column(finished);
  return j;
}

std::optional<import_chunk> claim_import_chunk(soci::session& sql, int64_t job_id,
                                               const std::string& node, int32_t chunk_size,
                                               int32_t stale_seconds) {
  import_chunk chunk;
  int32_t next = 0, total = 0;
  soci::statement lock = (sql.prepare << lock_sql, soci::use(job_id), soci::use(node),
                          soci::use(stale_seconds), soci::into(chunk.tenant_id),
                          soci::into(chunk.campaign_id), soci::into(next), soci::into(total));
  if (!lock.execute(true))
    return std::nullopt;
  sql << claim_sql, soci::use(node), soci::use(node), soci::use(job_id);
  chunk.count = std::min(chunk_size, total - next);
  if (chunk.count <= 0)
    return chunk;
  int32_t last = next + chunk.count - 1;
  sql << slice_sql, soci::use(next), soci::use(last), soci::use(job_id),
      soci::into(chunk.rows_json);
  return chunk;
}

bool complete_import_chunk(soci::session& sql, int64_t job_id, int32_t processed,
                           const insert_counts& counts) {
  std::string status;
  int32_t inserted = static_cast<int32_t>(counts.inserted);
  int32_t duplicates = static_cast<int32_t>(counts.duplicates);
  sql << complete_sql, soci::use(processed), soci::use(inserted), soci::use(duplicates),
      soci::use(processed), soci::use(processed), soci::use(job_id), soci::into(status);
  return status != "done";
}

std::vector<pending_import> claimable_imports(soci::session& sql, const std::string& node,
                                              int32_t stale_seconds, int32_t limit) {
  std::vector<pending_import> out;
  pending_import p;
  soci::statement st =
      (sql.prepare << pending_sql, soci::use(node), soci::use(stale_seconds), soci::use(limit),
       soci::into(p.job_id), soci::into(p.tenant_id), soci::into(p.campaign_id));
  st.execute();
  while (st.fetch())
    out.push_back(p);
  return out;
}

} // namespace vcs::storage
