#pragma once

#include "actors/entity_state.hpp"

namespace vcs::actors {

// One subscription's writes; each command runs in the next group commit
// (subscription_work.cpp), in the order of subscription_actor's interface.
struct subscription_state : entity_state {
  static inline const char* name = "subscription";

  using pointer = subscription_actor::stateful_pointer<subscription_state>;

  subscription_state() = default;

  // The actor this state belongs to (set first thing in its behaviour).
  pointer self = nullptr;

  caf::result<domain::payment_request> issue_payment(domain::payment_request& req);
  caf::result<domain::payment_request> change_payment(payment_change& change);
  caf::result<domain::usage_record> record_minutes(const minutes_change& m);
  caf::result<domain::usage_record> add_addon_minutes(const minutes_change& m);
  caf::result<bool> record_call_minutes(int64_t call_id);
  caf::result<sweep_counts> sweep(const sweep_request& req);
  void idle_tick();
  // Begins every batch of writes with the subscription's row lock.
  void lock_row_in_each_batch();

  int64_t tenant_id = 0;
  int64_t subscription_id = 0;
};

// Every transaction of the actor starts with the subscription's row lock, so
// the rules run against one state at a time on every node.
subscription_actor::behavior_type subscription(subscription_state::pointer self, int64_t tenant_id,
                                               int64_t subscription_id, entity_config_ptr config,
                                               registry_actor registry);

} // namespace vcs::actors
