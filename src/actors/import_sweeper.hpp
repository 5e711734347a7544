#pragma once

#include "actors/actors.hpp"
#include "actors/entity_config.hpp"

#include <chrono>

namespace vcs::actors {

struct import_sweeper_state {
  static inline const char* name = "import-sweeper";

  import_sweeper_state() = default;

  entity_config_ptr config;
  registry_actor registry;
  std::chrono::milliseconds interval{0};
};

// Looks for claimable import jobs at start and every `interval`: jobs of
// this node that a restart interrupted, and jobs whose node stopped
// heartbeating. Each goes to its campaign actor, which claims it in the
// database, so a job never runs on two nodes at once.
import_sweeper_actor::behavior_type
import_sweeper(import_sweeper_actor::stateful_pointer<import_sweeper_state> self,
               entity_config_ptr config, registry_actor registry,
               std::chrono::milliseconds interval);

} // namespace vcs::actors
