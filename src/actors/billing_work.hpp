#pragma once

// The database work behind billing messages, run by the subscription actor
// (and, for requests outside any subscription, the tenant actor) inside
// their group-commit transactions.

#include "actors/entity_config.hpp"
#include "actors/subscription_messages.hpp"

#include <optional>

namespace vcs::actors {

// Stores a new PENDING request; a linked subscription must be the client's,
// and a cycle request without a grace period gets the configured one.
domain::result<domain::payment_request> issue_payment(soci::session& sql, const entity_config& cfg,
                                                      int64_t tenant_id,
                                                      const domain::payment_request& req);

// Changes a request's status. With a subscription (whose row lock the
// transaction holds) the subscription rules follow; without one, the
// request must be outside every subscription.
domain::result<domain::payment_request> change_payment(soci::session& sql, int64_t tenant_id,
                                                       std::optional<int64_t> subscription_id,
                                                       const payment_change& change);

// Applies call minutes in the consumption order.
// Records an ended call's minutes (rounded up to hundredths), once: false
// when they were recorded before.
domain::result<bool> record_call_minutes(soci::session& sql, int64_t tenant_id,
                                         int64_t subscription_id, int64_t call_id);

domain::result<domain::usage_record> record_minutes(soci::session& sql, int64_t tenant_id,
                                                    int64_t subscription_id, int64_t hundredths);

// Adds add-on pack minutes to the balance that carries across periods.
domain::result<domain::usage_record> add_addon_minutes(soci::session& sql, int64_t tenant_id,
                                                       int64_t subscription_id, int64_t hundredths);

// Everything due for the subscription at `now`, in this order: ended
// periods roll over (OVERAGE for the ended one, a new period, SUBSCRIPTION
// for it), PENDING requests past due become OVERDUE (with the rules), and an
// expired grace period blocks a past_due subscription.
sweep_counts sweep_subscription(soci::session& sql, const entity_config& cfg, int64_t tenant_id,
                                int64_t subscription_id, domain::timestamp now);

} // namespace vcs::actors
