#include "actors/import_events.hpp"

#include "domain/webhook_event.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/event_repository.hpp"
#include "storage/import_job_repository.hpp"
#include "storage/webhook_repository.hpp"

namespace vcs::actors {

void announce_import_end(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                         int64_t job_id) {
  auto c = storage::find_campaign(sql, tenant_id, campaign_id);
  if (!c)
    return;
  auto job = storage::find_import_job(sql, tenant_id, campaign_id, job_id);
  if (!job)
    return;
  domain::webhook_envelope e;
  e.type = job->status == "failed" ? "import.failed" : "import.completed";
  e.id = domain::new_event_id();
  e.created_at = domain::now();
  const auto payload = domain::to_json(e, domain::import_job_json(*job));
  storage::record_event(sql, tenant_id, campaign_id, e.id, e.type, payload);
  if (c->webhook_url)
    storage::enqueue_webhook(sql, tenant_id, campaign_id, *c->webhook_url, e.id, e.type, payload);
}

} // namespace vcs::actors
