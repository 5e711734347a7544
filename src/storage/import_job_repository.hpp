#pragma once

#include "domain/bulk_import.hpp"
#include "domain/lead_record.hpp"
#include "storage/lead_repository.hpp"
#include "storage/page.hpp"

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

// Stores an accepted bulk import durably: the job with the rejections
// settled before it (bulk.rejected), then its rows. A body of one chunk
// (`chunk_size` rows) is inserted at once, in the caller's transaction; a
// job with nothing left is done at once. Larger bodies are stored in chunks
// of `chunk_size` rows, one per import transaction to come. The job is
// claimed by `node` from the start. Returns the job and whether rows are
// left.
//
// With `on_parallel_chunk`, a larger body's first two chunks also get
// positions in blocks of their own, and the hook hears of each before the
// rows are stored: other connections may insert them meanwhile
// (import_parallel_chunk). The stored chunks stay the durable copy until
// those complete them; the ordinary import puts a chunk that they do not
// complete at the same positions.
struct stored_import {
  int64_t job_id = 0;
  bool rows_left = false;
  // Every row is in one of the two chunks the hook heard of.
  bool all_in_parallel_chunks = false;
};
struct parallel_chunk {
  int64_t job_id = 0;
  int32_t first_index = 0; // among the job's rows
  int32_t count = 0;
  int64_t first_position = 0;
};
using parallel_chunk_hook = std::function<void(const parallel_chunk&)>;
stored_import insert_import_job(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                const domain::bulk_import& bulk, int32_t chunk_size,
                                const std::string& node,
                                const parallel_chunk_hook& on_parallel_chunk = {});

// A parallel chunk's own transaction, run next to the job's: inserts its
// rows (bulk.rows from at.first_index) at the positions reserved for them,
// waits for the job's transaction to end, then completes the chunk as an
// import transaction would (its rejections, the job's progress, the
// campaign's count and lead version). Answers whether rows are left, or
// nullopt when the chunk is not this transaction's to complete (the job's
// transaction rolled back, or another import took the chunk): the caller
// rolls back, and the stored chunk is imported as any other. A lock wait
// past `lock_wait` once the job's transaction has ended (a writer holding
// the campaign that waits on these rows) throws, with the same outcome.
std::optional<bool> import_parallel_chunk(soci::session& sql, int64_t tenant_id,
                                          int64_t campaign_id, const domain::bulk_import& bulk,
                                          const parallel_chunk& at,
                                          std::chrono::milliseconds lock_wait);

std::optional<domain::import_job> find_import_job(soci::session& sql, int64_t tenant_id,
                                                  int64_t campaign_id, int64_t job_id);

// A campaign's jobs, newest first, of one status (all when nullopt).
page_of<domain::import_job> list_import_jobs(soci::session& sql, int64_t tenant_id,
                                             int64_t campaign_id,
                                             const std::optional<std::string>& status,
                                             const page_request& page);

// A job's rejected items by index, of one reason (all when nullopt). The
// caller has found the job in its tenant's campaign (find_import_job).
page_of<domain::import_rejection>
list_import_rejections(soci::session& sql, int64_t job_id,
                       std::optional<domain::rejection_reason> reason, const page_request& page);

// Stops an unfinished job with `error` and drops its stored rows; false
// when it had already finished.
bool fail_import_job(soci::session& sql, int64_t job_id, const std::string& error);

// A stopping node gives up its unfinished imports, so another node's next
// sweep continues them instead of waiting until the claims are stale.
// Returns how many it released.
int64_t release_import_claims(soci::session& sql, const std::string& node);

// A job's next stored chunk (its lowest): its rows stay in the database
// (storage::import_leads reads them there).
struct import_chunk {
  int64_t tenant_id = 0;
  int64_t campaign_id = 0;
  int32_t first_index = 0;
  int32_t count = 0; // 0: no rows left
  // Reserved when the job was stored (parallel chunks); else the import
  // reserves them.
  std::optional<int64_t> first_position;
};

// Locks the job row and claims it for `node` unless another node holds a
// fresh claim (claims older than `stale_seconds` belong to a dead node), then
// returns its next chunk; nullopt when the job is finished or claimed
// elsewhere. Call complete_import_chunk in the same transaction.
std::optional<import_chunk> claim_import_chunk(soci::session& sql, int64_t job_id,
                                               const std::string& node, int32_t stale_seconds);

// Advances the job past the chunk, adds its counts and drops its stored
// rows; the job is done when nothing is left. Returns whether rows remain.
bool complete_import_chunk(soci::session& sql, int64_t job_id, const import_chunk& chunk,
                           const insert_counts& counts);

struct pending_import {
  int64_t job_id = 0;
  int64_t tenant_id = 0;
  int64_t campaign_id = 0;
};

// Unfinished jobs this node may take: unclaimed, its own, or stale.
std::vector<pending_import> claimable_imports(soci::session& sql, const std::string& node,
                                              int32_t stale_seconds, int32_t limit);

// A job as operators see it across tenants and nodes: whose it is and
// which node holds it.
struct cluster_import_job {
  int64_t tenant_id = 0;
  domain::import_job job;
  int32_t attempts = 0; // times a node claimed it
  std::optional<std::string> claimed_by;
  std::optional<domain::timestamp> claimed_at;
};

// Every tenant's jobs, newest first, of one tenant and one status when
// given; at most `limit`.
std::vector<cluster_import_job> list_cluster_imports(soci::session& sql,
                                                     std::optional<int64_t> tenant_id,
                                                     const std::optional<std::string>& status,
                                                     int32_t limit);

} // namespace vcs::storage
