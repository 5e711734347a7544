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

// campaign.activated, campaign.ended, campaign.paused: the campaign's
// status, and its pause reason when paused.
void campaign_event(soci::session& sql, const domain::campaign& c, std::string type);

} // namespace vcs::actors
