#include "actors/subscription_actor.hpp"

#include <caf/event_based_actor.hpp>

namespace vcs::actors {

subscription_actor::behavior_type subscription(subscription_state::pointer self, int64_t tenant_id,
                                               int64_t subscription_id, entity_config_ptr config,
                                               registry_actor registry) {
  self->state.self = self;
  self->state.tenant_id = tenant_id;
  self->state.subscription_id = subscription_id;
  self->state.start(self, std::move(config), std::move(registry), tenant_id);
  self->state.lock_row_in_each_batch();
  return {
      // Issues a payment request (PENDING) linked to the subscription.
      [self](create_atom, domain::payment_request& r) { return self->state.issue_payment(r); },
      // Changes one of its payment requests and applies the subscription rules.
      [self](update_atom, payment_change& c) { return self->state.change_payment(c); },
      // Records call minutes in the consumption order.
      [self](usage_atom, minutes_change m) { return self->state.record_minutes(m); },
      // Adds add-on pack minutes.
      [self](addon_atom, minutes_change m) { return self->state.add_addon_minutes(m); },
      // Records an ended call's minutes, once per call (false: already done).
      [self](usage_atom, call_atom, int64_t id) { return self->state.record_call_minutes(id); },
      // Runs the billing sweep for this subscription as of a time.
      [self](sweep_atom, sweep_request r) { return self->state.sweep(r); },
      // Timer tick: retires the actor when it has been idle long enough.
      [self](idle_atom) { self->state.idle_tick(); },
  };
}

} // namespace vcs::actors
