#pragma once

// What the subscription actor and the billing sweep read and write. Every
// write runs inside the subscription actor's transaction, after its row lock
// (lock_subscription), so the rules see one subscription state at a time on
// every node.

#include "domain/billing_records.hpp"
#include "domain/campaign.hpp"
#include "domain/subscription_rules.hpp"

#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

struct subscription_state {
  int64_t client_id = 0;
  std::string status;
};

// The subscription's row lock, taken first in each of its transactions
// (again when its state is needed: a lock already held costs nothing).
std::optional<subscription_state> lock_subscription(soci::session& sql, int64_t tenant_id,
                                                    int64_t subscription_id);
// The same lock as the first statement of a new transaction, in one round
// trip with its BEGIN.
void begin_locking_subscription(soci::session& sql, int64_t tenant_id, int64_t subscription_id);

// Everything the billing rules need about one subscription.
struct subscription_billing {
  int64_t client_id = 0;
  std::string status;
  domain::timestamp period_start{};
  domain::timestamp period_end{};
  domain::timestamp anchor{};
  domain::billing_interval interval = domain::billing_interval::month;
  std::string product_name;
  int64_t minute_price_units = 0;        // additional_minute_price at scale 4
  int64_t included_hundredths = 0;       // the product's included minutes
  std::vector<int64_t> flat_price_units; // licensed prices, scale 4
  std::string currency;
  domain::minute_balance usage;
};

std::optional<subscription_billing> load_subscription_billing(soci::session& sql, int64_t tenant_id,
                                                              int64_t subscription_id);

void set_subscription_status(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                             const std::string& status);

// Moves one of the subscription's requests to `status`: PAID keeps an
// earlier paid_at or records now, any other status clears it; a given
// external_payment_id is stored. Returns the request's type, or nullopt when
// it is not the subscription's (nullopt subscription: requests outside any).
std::optional<std::string> set_payment_status(soci::session& sql, int64_t tenant_id,
                                              std::optional<int64_t> subscription_id,
                                              int64_t payment_id, const std::string& status,
                                              const std::optional<std::string>& external_id);

// The subscription's cycle requests still PENDING or OVERDUE.
int64_t unresolved_cycle_requests(soci::session& sql, int64_t tenant_id, int64_t subscription_id);

// PENDING requests of the subscription due before `now` become OVERDUE;
// returns the type of each.
std::vector<std::string> mark_overdue(soci::session& sql, int64_t tenant_id,
                                      int64_t subscription_id, domain::timestamp now);

// Whether an OVERDUE cycle request's grace period ended before `now`.
bool grace_expired(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                   domain::timestamp now);

// A campaign a billing change paused, and its status before.
struct moved_campaign {
  int64_t id = 0;
  domain::campaign_status previous = domain::campaign_status::active;
};

// Pauses the ACTIVE and SCHEDULED campaigns assigned to the client's account
// configurations for `reason` (billing or usage_exhausted), remembering each
// one's status; returns them.
std::vector<moved_campaign> pause_client_campaigns(soci::session& sql, int64_t tenant_id,
                                                   int64_t subscription_id, int64_t client_id,
                                                   domain::pause_reason reason);

// Gives the campaigns this subscription paused for `reason` their status
// back (those still PAUSED for it; a campaign changed by hand meanwhile
// keeps its status); returns their ids.
std::vector<int64_t> resume_paused_campaigns(soci::session& sql, int64_t tenant_id,
                                             int64_t subscription_id, domain::pause_reason reason);

// Starts the next billing period: new bounds, included minutes reset to the
// product's, used and billable minutes zero, add-on balance kept.
void start_period(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                  domain::timestamp start, domain::timestamp end, int64_t included_hundredths);

// A cycle request the sweep issues, with one line item.
struct cycle_request {
  int64_t client_id = 0;
  std::string type;
  std::string amount;
  std::string currency;
  domain::timestamp due{};
  domain::timestamp grace_ends{};
  domain::timestamp period_start{};
  domain::timestamp period_end{};
  std::string description;
  std::string quantity;
  std::string unit_amount;
};

void insert_cycle_request(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                          const cycle_request& r);

std::optional<domain::usage_record> find_usage(soci::session& sql, int64_t tenant_id,
                                               int64_t subscription_id);

// Stores a balance; answers the record as stored (nullopt: no such usage).
std::optional<domain::usage_record> store_usage(soci::session& sql, int64_t tenant_id,
                                                int64_t subscription_id,
                                                const domain::minute_balance& b);

struct subscription_ref {
  int64_t tenant_id = 0;
  int64_t subscription_id = 0;
};

// The client's subscription that is not canceled (operator plane: the
// client decides the tenant).
std::optional<subscription_ref> live_subscription_of_client(soci::session& sql, int64_t client_id);

// The platform sweep works across tenants: it finds the subscriptions with
// something due at `now` (ids after `after`, in id order) and hands each to
// its own subscription actor, which works within its tenant.
std::vector<subscription_ref> subscriptions_to_sweep(soci::session& sql, domain::timestamp now,
                                                     int64_t after, int32_t limit);

// Requests outside any subscription move no subscription: PENDING ones due
// before `now` become OVERDUE here in one statement. Returns how many.
int64_t mark_unlinked_overdue(soci::session& sql, domain::timestamp now);

// Only one node sweeps at a time: a session-level advisory lock held by the
// sweeping node's own connection (released with it if the node dies).
bool try_sweep_lock(soci::session& sql);
void release_sweep_lock(soci::session& sql);

} // namespace vcs::storage
