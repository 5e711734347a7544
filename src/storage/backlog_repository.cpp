#include "storage/backlog_repository.hpp"

#include "storage/prepared.hpp"

#include <string>

namespace vcs::storage {
namespace {

// The due age counts deliveries the senders would claim (claim_webhooks):
// due, and of a tenant that is switched on.
constexpr prepared_statement backlog_stmt{
    "vcs_backlog", "SELECT (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'), "
                   "(SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(next_attempt_at)), 0)::float8 "
                   " FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now() "
                   " AND tenant_id IN (SELECT id FROM switched_on_tenants)), "
                   "(SELECT count(*) FROM lead_import_jobs WHERE status = 'queued'), "
                   "(SELECT count(*) FROM lead_import_jobs WHERE status = 'running'), "
                   "(SELECT COALESCE(sum(row_count), 0) FROM lead_import_chunks), "
                   "(SELECT count(*) FROM calls WHERE ended_at IS NULL)"};

} // namespace

backlog read_backlog(soci::session& sql) {
  auto rows = execute(sql, backlog_stmt, {});
  backlog b;
  b.outbox_pending = rows.int64(0, 0);
  b.outbox_due_age_seconds = std::stod(std::string{rows.text(0, 1)});
  b.imports_queued = rows.int64(0, 2);
  b.imports_running = rows.int64(0, 3);
  b.import_rows = rows.int64(0, 4);
  b.calls_active = rows.int64(0, 5);
  return b;
}

} // namespace vcs::storage
