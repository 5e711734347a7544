#pragma once

#include "actors/entity_state.hpp"

namespace vcs::actors {

struct campaign_state : entity_state {
  static inline const char* name = "campaign";

  campaign_state() = default;

  int64_t tenant_id = 0;
  int64_t campaign_id = 0;
};

campaign_actor::behavior_type campaign(campaign_actor::stateful_pointer<campaign_state> self,
                                       int64_t tenant_id, int64_t campaign_id,
                                       std::shared_ptr<const db_pool> pool, registry_actor registry,
                                       std::chrono::milliseconds idle_timeout);

} // namespace vcs::actors
