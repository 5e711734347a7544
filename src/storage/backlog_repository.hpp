#pragma once

#include <cstdint>

namespace soci {
class session;
}

namespace vcs::storage {

// What waits in the cluster's queues, for /metrics: the webhook outbox,
// unfinished imports and open calls. The operator plane's view across
// tenants (every node reports the same figures), read through the partial
// indexes of unfinished rows.
struct backlog {
  int64_t outbox_pending = 0;
  // How long the longest-waiting due delivery (its first attempt or next
  // retry reached) has been due: the senders' lag; 0 when none is due.
  double outbox_due_age_seconds = 0;
  int64_t imports_queued = 0;
  int64_t imports_running = 0;
  // Rows of unfinished imports still to insert.
  int64_t import_rows = 0;
  // Calls placed and not ended.
  int64_t calls_active = 0;
};

backlog read_backlog(soci::session& sql);

} // namespace vcs::storage
