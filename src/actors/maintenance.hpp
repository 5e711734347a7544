#pragma once

#include "actors/actors.hpp"
#include "actors/entity_config.hpp"
#include "actors/maintenance_settings.hpp"

namespace vcs::actors {

struct maintenance_state {
  static inline const char* name = "maintenance";

  maintenance_state() = default;

  entity_config_ptr config;
  maintenance_settings settings;
  // Whether the last fold or purge failed: a database outage is logged once
  // per kind of work, not every second.
  bool fold_failing = false;
  bool purge_failing = false;

  // Folds the next batch of lead counter changes.
  void fold(maintenance_actor::pointer self);
  // Deletes the next batch of rows past their retention.
  void purge(maintenance_actor::pointer self);
};

// Every node runs one; each batch is one short transaction under an
// advisory lock, so one node at a time does the work and a node that finds
// the lock taken waits for its next tick. A batch that was full is followed
// at once by the next, so a backlog drains without waiting for the ticks.
maintenance_actor::behavior_type
maintenance(maintenance_actor::stateful_pointer<maintenance_state> self, entity_config_ptr config,
            maintenance_settings settings);

} // namespace vcs::actors
