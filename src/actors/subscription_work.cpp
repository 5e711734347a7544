// The subscription actor's commands: each runs in the next group commit,
// after the subscription's row lock (lock_row_in_each_batch); the rules are
// in billing_work.cpp.

#include "actors/billing_work.hpp"
#include "actors/subscription_actor.hpp"
#include "storage/subscription_repository.hpp"

#include <caf/event_based_actor.hpp>

namespace vcs::actors {

caf::result<domain::payment_request>
subscription_state::issue_payment(domain::payment_request& req) {
  return write(self, [cfg = config, t = tenant_id, req = std::move(req)](soci::session& sql) {
    return actors::issue_payment(sql, *cfg, t, req);
  });
}

caf::result<domain::payment_request> subscription_state::change_payment(payment_change& change) {
  return write(self, [t = tenant_id, s = subscription_id, change = std::move(change)](
                         soci::session& sql) { return actors::change_payment(sql, t, s, change); });
}

caf::result<domain::usage_record> subscription_state::record_minutes(const minutes_change& m) {
  return write(self, [t = tenant_id, s = subscription_id, m](soci::session& sql) {
    return actors::record_minutes(sql, t, s, m.hundredths);
  });
}

caf::result<domain::usage_record> subscription_state::add_addon_minutes(const minutes_change& m) {
  return write(self, [t = tenant_id, s = subscription_id, m](soci::session& sql) {
    return actors::add_addon_minutes(sql, t, s, m.hundredths);
  });
}

caf::result<bool> subscription_state::record_call_minutes(int64_t call_id) {
  return write(self, [t = tenant_id, s = subscription_id, call_id](soci::session& sql) {
    return actors::record_call_minutes(sql, t, s, call_id);
  });
}

caf::result<sweep_counts> subscription_state::sweep(const sweep_request& req) {
  return write(self, [cfg = config, t = tenant_id, s = subscription_id, req](soci::session& sql) {
    return sweep_subscription(sql, *cfg, t, s, req.now);
  });
}

void subscription_state::idle_tick() {
  idle.tick(self, writes.busy(), registry, subscr_atom::value, tenant_id, subscription_id);
}

// Each command answers a missing subscription in its own terms, so the lock
// refuses nothing.
void subscription_state::lock_row_in_each_batch() {
  writes.set_prologue(
      [t = tenant_id, s = subscription_id](soci::session& sql) -> std::optional<domain::error> {
        storage::begin_locking_subscription(sql, t, s);
        return std::nullopt;
      });
}

} // namespace vcs::actors
