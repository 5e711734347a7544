#include "actors/webhook_outcome.hpp"

#include "domain/webhook_event.hpp"
#include "storage/event_repository.hpp"
#include "storage/webhook_repository.hpp"

#include <soci/soci.h>

namespace vcs::actors {

namespace {

constexpr int32_t http_gone = 410;
// The event also goes to this many of the tenant's other endpoints at most.
constexpr int32_t max_announcements = 20;

std::optional<std::string> disable_reason(const webhook_failure& f,
                                          const storage::webhook_endpoint& endpoint,
                                          domain::timestamp now) {
  if (endpoint.status != "enabled")
    return std::nullopt;
  if (f.status_code == http_gone)
    return "gone";
  const auto window = std::chrono::duration_cast<std::chrono::microseconds>(f.disable_after);
  if (!f.retry_at && endpoint.failing_since && *endpoint.failing_since <= now - window)
    return "failing";
  return std::nullopt;
}

// The disabled endpoint's own copy is dead-lettered unsent, so the tenant
// finds the event in its list; the others are sent.
void announce(soci::session& sql, int64_t tenant_id, const storage::webhook_endpoint& endpoint,
              const std::string& reason, domain::timestamp now) {
  const auto data = domain::endpoint_disabled_data(endpoint.id, endpoint.url, reason,
                                                   endpoint.failing_since, now);
  const domain::webhook_envelope feed{"webhook.endpoint_disabled", domain::new_event_id(), now};
  storage::record_event(sql, tenant_id, std::nullopt, feed.id, feed.type,
                        domain::to_json(feed, data));
  auto send_to = storage::enabled_webhook_endpoints(sql, tenant_id, max_announcements);
  send_to.push_back(endpoint);
  for (const auto& target : send_to) {
    domain::webhook_envelope e{"webhook.endpoint_disabled", domain::new_event_id(), now};
    storage::enqueue_webhook(sql, tenant_id, std::nullopt, target.url, e.id, e.type,
                             domain::to_json(e, data));
  }
}

} // namespace

bool record_webhook_failure(soci::session& sql, const webhook_failure& failure) {
  // 410 Gone: the receiver wants no more, so the delivery is not retried.
  webhook_failure f = failure;
  if (f.status_code == http_gone)
    f.retry_at.reset();
  soci::transaction tx{sql};
  const auto endpoint = storage::mark_webhook_failed(sql, f.tenant_id, f.delivery_id, f.status_code,
                                                     f.error, f.retry_at);
  const auto now = domain::now();
  std::optional<std::string> reason;
  if (endpoint)
    reason = disable_reason(f, *endpoint, now);
  const bool disabled =
      reason && storage::disable_webhook_endpoint(sql, f.tenant_id, endpoint->id, *reason);
  if (disabled)
    announce(sql, f.tenant_id, *endpoint, *reason, now);
  tx.commit();
  return disabled;
}

} // namespace vcs::actors
