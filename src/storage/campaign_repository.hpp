#pragma once

#include "domain/campaign.hpp"
#include "storage/page.hpp"

#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

struct campaign_quota {
  int32_t limit = 0; // the tenant's effective campaign limit
  int64_t used = 0;  // its campaigns that are not ENDED
};

// Locks the tenant row (FOR UPDATE) for the rest of the transaction and
// counts its campaigns: creates of one tenant are serialised on every node.
std::optional<campaign_quota> lock_campaign_quota(soci::session& sql, int64_t tenant_id);

domain::campaign insert_campaign(soci::session& sql, int64_t tenant_id,
                                 const domain::campaign_fields& fields);

// `for_update` locks the row for the rest of the transaction.
struct campaign_filter {
  std::optional<std::string> status; // e.g. "ACTIVE"
  std::optional<std::string> type;   // e.g. "OUTBOUND"
  // Only these campaigns (a key's), when set.
  std::optional<std::vector<int64_t>> only;
};

// GET /api/v2/voice-campaigns: newest first (by id, the order of creation).
page_of<domain::campaign> list_campaigns(soci::session& sql, int64_t tenant_id,
                                         const campaign_filter& filter, const page_request& page);

std::optional<domain::campaign> find_campaign(soci::session& sql, int64_t tenant_id,
                                              int64_t campaign_id, bool for_update = false);

// Starts a transaction, locks the campaign row for the rest of it and bumps
// its leads version, in one round trip; false when the tenant has no such
// campaign. Lead writes of one campaign serialise on it across nodes, so
// concurrent batches never lock lead rows in crossing orders; every one of
// them runs behind it, so a changed lead always comes with a new version.
bool begin_locking_campaign(soci::session& sql, int64_t tenant_id, int64_t campaign_id);

// Changes only the given fields (create-only fields are never written here).
domain::campaign update_campaign(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                 const domain::campaign_fields& fields);

domain::campaign set_campaign_status(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                     domain::campaign_status status);

// Pauses an ACTIVE campaign whose provider refused its configuration's
// credentials; nullopt when it was not ACTIVE.
std::optional<domain::campaign>
pause_for_provider_credentials(soci::session& sql, int64_t tenant_id, int64_t campaign_id);

// Pauses an ACTIVE campaign for its failure breaker, which from then on
// counts only calls after `last_call_id`; nullopt when it was not ACTIVE.
std::optional<domain::campaign> trip_failure_breaker(soci::session& sql, int64_t tenant_id,
                                                     int64_t campaign_id, int64_t last_call_id);

// The status of a past_due or blocked subscription of a client whose account
// configuration holds the campaign, if any.
std::optional<std::string> blocking_subscription_status(soci::session& sql, int64_t tenant_id,
                                                        int64_t campaign_id);

} // namespace vcs::storage
