#include "storage/import_job_repository.hpp"

#include "storage/lead_columns.hpp"
#include "storage/page_rows.hpp"
#include "storage/prepared.hpp"

#include <algorithm>
#include <span>

namespace vcs::storage {

namespace {

// The job comes first, so that the rows inserted with it can record their
// rejections under its id; its first chunk's counts follow (complete_stmt).
// Claimed by the node storing it, which goes on with it after the answer.
constexpr prepared_statement insert_stmt{
    "vcs_insert_import_job",
    "INSERT INTO lead_import_jobs (tenant_id, campaign_id, accepted, invalid, request_duplicates, "
    "duplicates, claimed_by, claimed_at, attempts) VALUES ($1, $2, $3, $4, $5, $5, $6, now(), 1) "
    "RETURNING id"};

// A job whose chunks other connections insert: the job's transaction holds
// this lock until it ends, and each of the others takes it, shared, to wait
// for that end. The two-integer form has a key space of its own.
#define JOB_LOCK(kind) "pg_advisory_xact_lock" kind "(1769, ($1 % 2147483647)::integer)"
constexpr prepared_statement hold_job_stmt{"vcs_hold_import_job", "SELECT " JOB_LOCK("")};
// Once the job's transaction has ended, lock waits are bounded ($2 ms).
constexpr prepared_statement await_job_stmt{
    "vcs_await_import_job",
    "SELECT set_config('lock_timeout', $2::text, true) FROM (SELECT " JOB_LOCK(
        "_shared") ") AS held"};
#undef JOB_LOCK

// A parallel chunk's rows that did not go in: their positions hold no lead.
constexpr prepared_statement parallel_rejections_stmt{
    "vcs_parallel_chunk_rejections",
    "INSERT INTO lead_import_rejections (job_id, row_index, phone_number, reason, message) "
    "SELECT $1, r.i, r.p, 'already_in_campaign', $5 "
    "FROM unnest($2::integer[], $3::text[]) WITH ORDINALITY AS r(i, p, ord) "
    "WHERE NOT EXISTS (SELECT 1 FROM leads WHERE campaign_id = $4 AND position = $6 + r.ord - 1)"};

// The rejections settled before the job was stored, in one statement.
constexpr prepared_statement insert_rejections_stmt{
    "vcs_insert_import_rejections",
    "INSERT INTO lead_import_rejections (job_id, row_index, phone_number, reason, message) "
    "SELECT $1, x.i, x.p, x.r, x.m FROM unnest($2::int[], $3::text[], $4::text[], $5::text[]) "
    "AS x(i, p, r, m)"};

// One chunk of a job's rows, cut by the service, as lead_columns; with the
// positions reserved for it, if any.
constexpr prepared_statement insert_chunk_stmt{
    "vcs_insert_import_chunk",
    "INSERT INTO lead_import_chunks (job_id, first_index, row_count, phone_numbers, first_names, "
    "last_names, emails, custom_fields, invalid, invalid_reasons, row_indexes, first_position) "
    "VALUES ($1, $2, $3, $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], "
    "$9::boolean[], $10::text[], $11::integer[], $12)"};

#define JOB_COLUMNS                                                                                \
  "id, campaign_id, status, accepted, invalid, inserted, duplicates, "                             \
  "accepted - invalid - request_duplicates - next_index, error, created_at, finished_at"
#define JOB_SELECT "SELECT " JOB_COLUMNS " FROM lead_import_jobs "
constexpr prepared_statement find_stmt{"vcs_find_import_job", JOB_SELECT
                                       "WHERE tenant_id = $1 AND campaign_id = $2 AND id = $3"};

// A campaign's jobs, newest first; a NULL status ($3) matches every job.
#define JOB_LIST_WHERE                                                                             \
  " FROM lead_import_jobs WHERE tenant_id = $1 AND campaign_id = $2 "                              \
  "AND ($3::text IS NULL OR status = $3) "
constexpr prepared_statement count_jobs_stmt{"vcs_count_import_jobs",
                                             "SELECT count(*)" JOB_LIST_WHERE};
constexpr prepared_statement list_jobs_stmt{"vcs_list_import_jobs",
                                            "SELECT " JOB_COLUMNS JOB_LIST_WHERE
                                            "ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5"};
#undef JOB_LIST_WHERE

// A job's rejections by index; a NULL reason ($2) matches every one.
#define REJECTION_WHERE                                                                            \
  " FROM lead_import_rejections WHERE job_id = $1 AND ($2::text IS NULL OR reason = $2) "
constexpr prepared_statement count_rejections_stmt{"vcs_count_import_rejections",
                                                   "SELECT count(*)" REJECTION_WHERE};
constexpr prepared_statement list_rejections_stmt{
    "vcs_list_import_rejections", "SELECT row_index, phone_number, reason, message" REJECTION_WHERE
                                  "ORDER BY row_index LIMIT $3 OFFSET $4"};
#undef REJECTION_WHERE

// Stops an unfinished job: its stored rows are dropped.
constexpr prepared_statement fail_stmt{
    "vcs_fail_import_job",
    "WITH gone AS (DELETE FROM lead_import_chunks WHERE job_id = $1) "
    "UPDATE lead_import_jobs SET status = 'failed', error = $2, finished_at = now(), "
    "claimed_by = NULL WHERE id = $1 AND status IN ('queued', 'running') RETURNING 1"};

constexpr prepared_statement release_stmt{
    "vcs_release_import_claims",
    "UPDATE lead_import_jobs SET claimed_by = NULL WHERE claimed_by = $1 "
    "AND status IN ('queued', 'running')"};

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

// The job's next chunk comes with it: its lowest stored one (parallel
// chunks may complete out of order); none when every row is in.
constexpr prepared_statement lock_stmt{
    "vcs_lock_import_job",
    "SELECT j.tenant_id, j.campaign_id, coalesce(c.first_index, j.next_index), c.row_count, "
    "c.first_position FROM lead_import_jobs j "
    "LEFT JOIN LATERAL (SELECT first_index, row_count, first_position FROM lead_import_chunks "
    "WHERE job_id = j.id ORDER BY first_index LIMIT 1) c ON true "
    "WHERE j.id = $1 AND " CLAIMABLE("$2", "$3") " FOR UPDATE OF j"};

constexpr prepared_statement claim_stmt{
    "vcs_claim_import_job",
    "UPDATE lead_import_jobs SET status = 'running', claimed_at = now(), "
    "attempts = attempts + CASE WHEN claimed_by IS DISTINCT FROM $2 THEN 1 ELSE 0 END, "
    "claimed_by = $2 WHERE id = $1"};

// The chunk's rows go with the transaction that inserted them.
#define ADVANCE_JOB                                                                                \
  "UPDATE lead_import_jobs SET next_index = next_index + $2, inserted = inserted + $3, "           \
  "duplicates = duplicates + $4, claimed_at = now(), "                                             \
  "status = CASE WHEN next_index + $2 >= accepted - invalid - request_duplicates THEN 'done' "     \
  "ELSE 'running' END, "                                                                           \
  "finished_at = CASE WHEN next_index + $2 >= accepted - invalid - request_duplicates "            \
  "THEN now() END "
constexpr prepared_statement complete_stmt{"vcs_complete_import_chunk",
                                           "WITH done AS (DELETE FROM lead_import_chunks WHERE "
                                           "job_id = $1 AND first_index = $5) " ADVANCE_JOB
                                           "WHERE id = $1 RETURNING status"};

// complete_stmt for a parallel chunk's own transaction, which completes the
// chunk only if it is still stored: no row otherwise.
constexpr prepared_statement complete_parallel_stmt{
    "vcs_complete_parallel_chunk",
    "WITH done AS (DELETE FROM lead_import_chunks WHERE job_id = $1 AND first_index = $5 "
    "RETURNING 1) " ADVANCE_JOB "WHERE id = $1 AND status IN ('queued', 'running') "
    "AND EXISTS (SELECT 1 FROM done) RETURNING status"};
#undef ADVANCE_JOB

constexpr prepared_statement pending_stmt{
    "vcs_claimable_imports",
    "SELECT id, tenant_id, campaign_id FROM lead_import_jobs WHERE " CLAIMABLE(
        "$1", "$2") " ORDER BY created_at, id LIMIT $3"};
#undef CLAIMABLE

// Every tenant's jobs for operators, newest first: a NULL tenant ($1) or
// status ($2) matches every one. The primary key's order is the jobs'
// creation order.
constexpr prepared_statement cluster_list_stmt{
    "vcs_list_cluster_imports",
    "SELECT " JOB_COLUMNS ", tenant_id, attempts, claimed_by, claimed_at FROM lead_import_jobs "
    "WHERE ($1::bigint IS NULL OR tenant_id = $1) AND ($2::text IS NULL OR status = $2) "
    "ORDER BY id DESC LIMIT $3"};
#undef JOB_SELECT
#undef JOB_COLUMNS

namespace cluster_col {
enum : int { tenant_id = find_col::finished_at + 1, attempts, claimed_by, claimed_at };
} // namespace cluster_col

domain::import_job job_of(const pg_rows& rows, int i) {
  domain::import_job j;
  j.id = rows.int64(i, find_col::id);
  j.campaign_id = rows.int64(i, find_col::campaign_id);
  j.status = rows.text(i, find_col::status);
  j.accepted = rows.int32(i, find_col::accepted);
  j.invalid = rows.int32(i, find_col::invalid);
  j.inserted = rows.int32(i, find_col::inserted);
  j.duplicates = rows.int32(i, find_col::duplicates);
  j.pending = rows.int32(i, find_col::pending);
  j.error = rows.opt_text(i, find_col::error);
  j.created_at = rows.timestamp(i, find_col::created_at);
  j.finished_at = rows.opt_timestamp(i, find_col::finished_at);
  return j;
}

void insert_rejections(soci::session& sql, int64_t job_id,
                       const std::vector<domain::import_rejection>& rejected) {
  if (rejected.empty())
    return;
  std::vector<int64_t> index;
  std::vector<std::optional<std::string>> phone;
  std::vector<std::string> reason, message;
  for (const auto& r : rejected) {
    index.push_back(r.index);
    phone.push_back(r.phone_number);
    reason.emplace_back(domain::to_string(r.reason));
    message.push_back(r.message);
  }
  execute(sql, insert_rejections_stmt, {job_id, index, phone, reason, message});
}

// Stores rows [at, at + count) as a chunk of job `id`.
void store_chunk(soci::session& sql, int64_t id, std::span<const domain::lead_input> rows,
                 std::span<const int32_t> index, int32_t at, int32_t count,
                 std::optional<int64_t> first_position) {
  const auto from = static_cast<std::size_t>(at);
  const auto n = static_cast<std::size_t>(count);
  auto c = columns_of(rows.subspan(from, n), index.subspan(from, n));
  execute(sql, insert_chunk_stmt,
          {id, at, count, std::move(c.phone_number), std::move(c.first_name),
           std::move(c.last_name), std::move(c.email), std::move(c.custom_fields),
           std::move(c.invalid), std::move(c.invalid_reason), std::move(c.row_index),
           first_position});
}

} // namespace

stored_import insert_import_job(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                const domain::bulk_import& bulk, int32_t chunk_size,
                                const std::string& node,
                                const parallel_chunk_hook& on_parallel_chunk) {
  const std::span<const domain::lead_input> rows = bulk.rows;
  const std::span<const int32_t> index = bulk.row_index;
  const auto id =
      execute(sql, insert_stmt,
              {tenant_id, campaign_id, bulk.accepted, bulk.invalid, bulk.duplicates, node})
          .int64(0, 0);
  insert_rejections(sql, id, bulk.rejected);
  const auto total = static_cast<int32_t>(rows.size());
  const auto first = std::min(total, chunk_size);
  if (on_parallel_chunk && total > first) {
    // The first two chunks go in on other connections while this
    // transaction stores every chunk.
    execute(sql, hold_job_stmt, {id});
    const auto second = std::min(chunk_size, total - first);
    const auto at = reserve_own_blocks(sql, tenant_id, campaign_id, first, second);
    on_parallel_chunk({id, 0, first, at.first});
    on_parallel_chunk({id, first, second, at.second});
    store_chunk(sql, id, rows, index, 0, first, at.first);
    store_chunk(sql, id, rows, index, first, second, at.second);
    for (int32_t from = first + second; from < total; from += chunk_size)
      store_chunk(sql, id, rows, index, from, std::min(chunk_size, total - from), std::nullopt);
    return {id, true, first + second == total};
  }
  // The first chunk's rows skip the store-then-read round: a body of one
  // chunk is in when it is answered.
  insert_counts counts;
  if (first > 0)
    counts = insert_leads(sql, tenant_id, campaign_id, rows.first(static_cast<std::size_t>(first)),
                          index.first(static_cast<std::size_t>(first)), id);
  for (int32_t from = first; from < total; from += chunk_size)
    store_chunk(sql, id, rows, index, from, std::min(chunk_size, total - from), std::nullopt);
  const bool left =
      complete_import_chunk(sql, id, {tenant_id, campaign_id, 0, first, std::nullopt}, counts);
  return {id, left, false};
}

std::optional<bool> import_parallel_chunk(soci::session& sql, int64_t tenant_id,
                                          int64_t campaign_id, const domain::bulk_import& bulk,
                                          const parallel_chunk& at,
                                          std::chrono::milliseconds lock_wait) {
  const auto from = static_cast<std::size_t>(at.first_index);
  const auto n = static_cast<std::size_t>(at.count);
  const auto leads = std::span<const domain::lead_input>{bulk.rows}.subspan(from, n);
  const auto index = std::span<const int32_t>{bulk.row_index}.subspan(from, n);
  const auto inserted = insert_leads_at(sql, tenant_id, campaign_id, at.first_position, leads);
  execute(sql, await_job_stmt, {at.job_id, static_cast<int64_t>(lock_wait.count())});
  const auto duplicates = at.count - static_cast<int32_t>(inserted);
  auto status =
      execute(sql, complete_parallel_stmt,
              {at.job_id, at.count, static_cast<int32_t>(inserted), duplicates, at.first_index});
  if (status.size() == 0)
    return std::nullopt;
  if (duplicates > 0) {
    auto c = columns_of(leads, index);
    execute(sql, parallel_rejections_stmt,
            {at.job_id, std::move(c.row_index), std::move(c.phone_number), campaign_id,
             domain::already_in_campaign_message, at.first_position});
  }
  if (inserted > 0)
    count_inserted_leads(sql, tenant_id, campaign_id, inserted);
  return status.text(0, 0) != "done";
}

std::optional<domain::import_job> find_import_job(soci::session& sql, int64_t tenant_id,
                                                  int64_t campaign_id, int64_t job_id) {
  auto rows = execute(sql, find_stmt, {tenant_id, campaign_id, job_id});
  if (rows.size() == 0)
    return std::nullopt;
  return job_of(rows, 0);
}

page_of<domain::import_job> list_import_jobs(soci::session& sql, int64_t tenant_id,
                                             int64_t campaign_id,
                                             const std::optional<std::string>& status,
                                             const page_request& page) {
  auto total = execute(sql, count_jobs_stmt, {tenant_id, campaign_id, status});
  auto rows = execute(sql, list_jobs_stmt,
                      {tenant_id, campaign_id, status, page.page_size, offset_of(page)});
  return page_from(total, rows, job_of);
}

page_of<domain::import_rejection>
list_import_rejections(soci::session& sql, int64_t job_id,
                       std::optional<domain::rejection_reason> reason, const page_request& page) {
  std::optional<std::string> reason_text;
  if (reason)
    reason_text = std::string{domain::to_string(*reason)};
  auto total = execute(sql, count_rejections_stmt, {job_id, reason_text});
  auto rows =
      execute(sql, list_rejections_stmt, {job_id, reason_text, page.page_size, offset_of(page)});
  return page_from(total, rows, [](const pg_rows& r, int i) {
    return domain::import_rejection{r.int32(i, 0), r.opt_text(i, 1),
                                    r.parsed(i, 2, domain::parse_rejection_reason),
                                    std::string{r.text(i, 3)}};
  });
}

bool fail_import_job(soci::session& sql, int64_t job_id, const std::string& error) {
  return execute(sql, fail_stmt, {job_id, error}).size() > 0;
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
  chunk.first_position = lock.opt_int64(0, 4);
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

int64_t release_import_claims(soci::session& sql, const std::string& node) {
  return execute(sql, release_stmt, {node}).affected();
}

std::vector<cluster_import_job> list_cluster_imports(soci::session& sql,
                                                     std::optional<int64_t> tenant_id,
                                                     const std::optional<std::string>& status,
                                                     int32_t limit) {
  auto rows = execute(sql, cluster_list_stmt, {tenant_id, status, limit});
  std::vector<cluster_import_job> out;
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i)
    out.push_back({rows.int64(i, cluster_col::tenant_id), job_of(rows, i),
                   rows.int32(i, cluster_col::attempts), rows.opt_text(i, cluster_col::claimed_by),
                   rows.opt_timestamp(i, cluster_col::claimed_at)});
  return out;
}

} // namespace vcs::storage
