#pragma once

#include "actors/actors.hpp"
#include "actors/db_pool.hpp"
#include "actors/group_commit.hpp"

#include <chrono>
#include <memory>

namespace vcs::actors {

struct tenant_state {
  static inline const char* name = "tenant";

  tenant_state() = default;

  int64_t tenant_id = 0;
  std::shared_ptr<const db_pool> pool;
  registry_actor registry;
  std::chrono::milliseconds idle_timeout{0};
  std::chrono::steady_clock::time_point last_active{};
  bool retiring = false;
  group_commit writes;

  void touch() { last_active = std::chrono::steady_clock::now(); }
};

tenant_actor::behavior_type tenant(tenant_actor::stateful_pointer<tenant_state> self,
                                   int64_t tenant_id, std::shared_ptr<const db_pool> pool,
                                   registry_actor registry, std::chrono::milliseconds idle_timeout);

} // namespace vcs::actors
