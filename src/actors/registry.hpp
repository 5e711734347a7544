#pragma once

#include "actors/actors.hpp"
#include "actors/db_pool.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>

namespace vcs::actors {

struct registry_state {
  static inline const char* name = "registry";

  registry_state() = default;

  std::shared_ptr<const db_pool> pool;
  std::chrono::milliseconds idle_timeout{0};
  std::unordered_map<int64_t, tenant_actor> tenants;
  // Keyed by (tenant id, campaign id).
  std::map<std::pair<int64_t, int64_t>, campaign_actor> campaigns;
};

registry_actor::behavior_type registry(registry_actor::stateful_pointer<registry_state> self,
                                       std::shared_ptr<const db_pool> pool,
                                       std::chrono::milliseconds idle_timeout);

} // namespace vcs::actors
