#include "actors/campaign_events.hpp"

#include "domain/global_id.hpp"
#include "storage/event_repository.hpp"
#include "storage/webhook_repository.hpp"

namespace vcs::actors {

void enqueue_event(soci::session& sql, const domain::campaign& c, domain::webhook_event e) {
  e.id = domain::new_event_id();
  e.created_at = domain::now();
  e.campaign_id = domain::encode_global_id(domain::entity::campaign, c.id);
  const auto payload = domain::to_json(e);
  storage::record_event(sql, c.tenant_id, c.id, e.id, e.type, payload);
  if (c.webhook_url)
    storage::enqueue_webhook(sql, c.tenant_id, c.id, *c.webhook_url, e.id, e.type, payload);
}

void status_event(soci::session& sql, const domain::campaign& c, domain::campaign_status previous,
                  domain::status_cause cause) {
  domain::webhook_event e;
  e.type = std::string{domain::campaign_event_type(c.status)};
  e.campaign_status = std::string{domain::to_string(c.status)};
  e.previous_status = std::string{domain::to_string(previous)};
  e.changed_by = std::string{domain::to_string(cause)};
  if (c.paused_for)
    e.pause_reason = std::string{domain::to_string(*c.paused_for)};
  enqueue_event(sql, c, std::move(e));
}

} // namespace vcs::actors
