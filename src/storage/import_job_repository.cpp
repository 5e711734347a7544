#include "storage/import_job_repository.hpp"

#include "storage/prepared.hpp"

#include <algorithm>

namespace vcs::storage {

namespace {

// The counts are cast: each is also compared with the other, which alone
// would type them as text. The rows already inserted ($5, with their
// counts $6 and $7) are not stored.
constexpr prepared_statement insert_stmt{
    "vcs_insert_import_job",
    "INSERT INTO lead_import_jobs (tenant_id, campaign_id, accepted, invalid, next_index, "
    "inserted, duplicates, status, finished_at) "
    "VALUES ($1, $2, $3::int, $4::int, $5::int, $6::int, $7::int, "
    "CASE WHEN $3::int - $4::int = $5::int THEN 'done' ELSE 'queued' END, "
    "CASE WHEN $3::int - $4::int = $5::int THEN now() END) RETURNING id"};

// One chunk of a job's rows, cut by the service: parsing one array of all
// of them and cutting it in SQL cost as much again as the parse.
constexpr prepared_statement insert_chunk_stmt{
    "vcs_insert_import_chunk",
    "INSERT INTO lead_import_chunks (job_id, first_index, row_count, rows) "
    "VALUES ($1, $2, $3, $4::jsonb)"};

constexpr prepared_statement find_stmt{
    "vcs_find_import_job",
    "SELECT id, campaign_id, status, accepted, invalid, inserted, duplicates, "
    "accepted - invalid - next_index, error, created_at, finished_at FROM lead_import_jobs "
    "WHERE tenant_id = $1 AND campaign_id = $2 AND id = $3"};

namespace find_col {
enum : int {
  id,
  campaign_id,
  status,
  accepted,
  invalid,
  inserted,
  duplicates,
  pending,
  error,
  created_at,
  finished_at
};
} // namespace find_col

// A claim is free, ours (parameter `me`), or stale (its node stopped
// heartbeating for `stale` seconds).
#define CLAIMABLE(me, stale)                                                                       \
  "status IN ('queued', 'running') AND (claimed_by IS NULL OR claimed_by = " me " OR "             \
  "claimed_at < now() - make_interval(secs => " stale "))"

// The job's next chunk comes with it; none when every row is in.
constexpr prepared_statement lock_stmt{
    "vcs_lock_import_job",
    "SELECT j.tenant_id, j.campaign_id, j.next_index, c.row_count FROM lead_import_jobs j "
    "LEFT JOIN lead_import_chunks c ON c.job_id = j.id AND c.first_index = j.next_index "
    "WHERE j.id = $1 AND " CLAIMABLE("$2", "$3") " FOR UPDATE OF j"};

constexpr prepared_statement claim_stmt{
    "vcs_claim_import_job",
    "UPDATE lead_import_jobs SET status = 'running', claimed_at = now(), "
    "attempts = attempts + CASE WHEN claimed_by IS DISTINCT FROM $2 THEN 1 ELSE 0 END, "
    "claimed_by = $2 WHERE id = $1"};

// The chunk's rows go with the transaction that inserted them.
constexpr prepared_statement complete_stmt{
    "vcs_complete_import_chunk",
    "WITH done AS (DELETE FROM lead_import_chunks WHERE job_id = $1 AND first_index = $5) "
    "UPDATE lead_import_jobs SET next_index = next_index + $2, inserted = inserted + $3, "
    "duplicates = duplicates + $4, claimed_at = now(), "
    "status = CASE WHEN next_index + $2 >= accepted - invalid THEN 'done' ELSE 'running' END, "
    "finished_at = CASE WHEN next_index + $2 >= accepted - invalid THEN now() END "
    "WHERE id = $1 RETURNING status"};

constexpr prepared_statement pending_stmt{
    "vcs_claimable_imports",
    "SELECT id, tenant_id, campaign_id FROM lead_import_jobs WHERE " CLAIMABLE(
        "$1", "$2") " ORDER BY created_at, id LIMIT $3"};
#undef CLAIMABLE

} // namespace

stored_import insert_import_job(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                const domain::json_rows& rows, int32_t accepted, int32_t invalid,
                                int32_t chunk_size) {
  // The first chunk's rows skip the store-then-read round: a body of one
  // chunk is in when it is answered.
  const auto total = static_cast<int32_t>(rows.size());
  const auto first = std::min(total, chunk_size);
  insert_counts counts;
  if (first > 0)
    counts = insert_leads(sql, tenant_id, campaign_id, rows.slice(0, first), first);
  const auto id =
      execute(sql, insert_stmt,
              {tenant_id, campaign_id, accepted, invalid, first,
               static_cast<int32_t>(counts.inserted), static_cast<int32_t>(counts.duplicates)})
          .int64(0, 0);
  for (int32_t at = first; at < total; at += chunk_size) {
    const auto count = std::min(chunk_size, total - at);
    execute(sql, insert_chunk_stmt, {id, at, count, rows.slice(at, at + count)});
  }
  return {id, first < total};
}

std::optional<domain::import_job> find_import_job(soci::session& sql, int64_t tenant_id,
                                                  int64_t campaign_id, int64_t job_id) {
  auto rows = execute(sql, find_stmt, {tenant_id, campaign_id, job_id});
  if (rows.size() == 0)
    return std::nullopt;
  domain::import_job j;
  j.id = rows.int64(0, find_col::id);
  j.campaign_id = rows.int64(0, find_col::campaign_id);
  j.status = rows.text(0, find_col::status);
  j.accepted = rows.int32(0, find_col::accepted);
  j.invalid = rows.int32(0, find_col::invalid);
  j.inserted = rows.int32(0, find_col::inserted);
  j.duplicates = rows.int32(0, find_col::duplicates);
  j.pending = rows.int32(0, find_col::pending);
  j.error = rows.opt_text(0, find_col::error);
  j.created_at = rows.timestamp(0, find_col::created_at);
  j.finished_at = rows.opt_timestamp(0, find_col::finished_at);
  return j;
}

std::optional<import_chunk> claim_import_chunk(soci::session& sql, int64_t job_id,
                                               const std::string& node, int32_t stale_seconds) {
  auto lock = execute(sql, lock_stmt, {job_id, node, stale_seconds});
  if (lock.size() == 0)
    return std::nullopt;
  import_chunk chunk;
  chunk.tenant_id = lock.int64(0, 0);
  chunk.campaign_id = lock.int64(0, 1);
  chunk.first_index = lock.int32(0, 2);
  chunk.count = lock.opt_int32(0, 3).value_or(0);
  execute(sql, claim_stmt, {job_id, node});
  return chunk;
}

bool complete_import_chunk(soci::session& sql, int64_t job_id, const import_chunk& chunk,
                           const insert_counts& counts) {
  auto rows = execute(sql, complete_stmt,
                      {job_id, chunk.count, static_cast<int32_t>(counts.inserted),
                       static_cast<int32_t>(counts.duplicates), chunk.first_index});
  return rows.size() == 0 || rows.text(0, 0) != "done";
}

std::vector<pending_import> claimable_imports(soci::session& sql, const std::string& node,
                                              int32_t stale_seconds, int32_t limit) {
  auto rows = execute(sql, pending_stmt, {node, stale_seconds, limit});
  std::vector<pending_import> out;
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i)
    out.push_back({rows.int64(i, 0), rows.int64(i, 1), rows.int64(i, 2)});
  return out;
}

} // namespace vcs::storage
