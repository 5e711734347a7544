#pragma once

#include "actors/entity_state.hpp"

namespace vcs::actors {

struct subscription_state : entity_state {
  static inline const char* name = "subscription";

  subscription_state() = default;

  int64_t tenant_id = 0;
  int64_t subscription_id = 0;
};

// Every transaction of the actor starts with the subscription's row lock, so
// the rules run against one state at a time on every node.
subscription_actor::behavior_type
subscription(subscription_actor::stateful_pointer<subscription_state> self, int64_t tenant_id,
             int64_t subscription_id, entity_config_ptr config, registry_actor registry);

} // namespace vcs::actors
