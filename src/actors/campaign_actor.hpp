#pragma once

#include "actors/entity_state.hpp"

#include <set>

namespace vcs::actors {

struct campaign_state : entity_state {
  static inline const char* name = "campaign";

  campaign_state() = default;

  int64_t tenant_id = 0;
  int64_t campaign_id = 0;
  // Import jobs this actor is working through (one chunk in flight each).
  std::set<int64_t> importing;
  // Calls this actor placed that have not ended: it stays alive for their
  // reports.
  std::set<int64_t> open_calls;
};

campaign_actor::behavior_type campaign(campaign_actor::stateful_pointer<campaign_state> self,
                                       int64_t tenant_id, int64_t campaign_id,
                                       entity_config_ptr config, registry_actor registry);

} // namespace vcs::actors
