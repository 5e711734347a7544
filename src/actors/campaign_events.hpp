#pragma once

// The events a campaign's transactions queue (docs/webhooks.md), written in
// the transaction that made them true.

#include "domain/campaign.hpp"
#include "domain/webhook_event.hpp"

#include <string>

namespace soci {
class session;
}

namespace vcs::actors {

// Queues `e` for the tenant's event feed, and for the campaign's
// webhook_url when it has one.
void enqueue_event(soci::session& sql, const domain::campaign& c, domain::webhook_event e);

// The event of the campaign's status change (domain::campaign_event_type of
// the status it reached): that status, the one before and what changed it,
// and its pause reason when paused. Every status change queues one.
void status_event(soci::session& sql, const domain::campaign& c, domain::campaign_status previous,
                  domain::status_cause cause);

} // namespace vcs::actors
