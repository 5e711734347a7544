#pragma once

// import.completed and import.failed, queued for the campaign's webhook URL
// in the transaction that finished the job: the job's status changes once,
// under its row lock, so the event is queued once.

#include <cstdint>

namespace soci {
class session;
}

namespace vcs::actors {

void announce_import_end(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                         int64_t job_id);

} // namespace vcs::actors
