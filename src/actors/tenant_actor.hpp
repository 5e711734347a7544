#pragma once

#include "actors/entity_state.hpp"

namespace vcs::actors {

struct tenant_state : entity_state {
  static inline const char* name = "tenant";

  tenant_state() = default;

  int64_t tenant_id = 0;
};

tenant_actor::behavior_type tenant(tenant_actor::stateful_pointer<tenant_state> self,
                                   int64_t tenant_id, entity_config_ptr config,
                                   registry_actor registry);

} // namespace vcs::actors
