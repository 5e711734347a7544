#pragma once

#include "actors/actors.hpp"
#include "actors/entity_config.hpp"

#include <map>
#include <unordered_map>
#include <utility>

namespace vcs::actors {

struct registry_state {
  static inline const char* name = "registry";

  registry_state() = default;

  entity_config_ptr config;
  std::unordered_map<int64_t, tenant_actor> tenants;
  // Keyed by (tenant id, campaign id).
  std::map<std::pair<int64_t, int64_t>, campaign_actor> campaigns;
  // Keyed by (tenant id, subscription id).
  std::map<std::pair<int64_t, int64_t>, subscription_actor> subscriptions;
};

registry_actor::behavior_type registry(registry_actor::stateful_pointer<registry_state> self,
                                       entity_config_ptr config);

} // namespace vcs::actors
