#pragma once

#include "actors/actors.hpp"
#include "actors/entity_config.hpp"
#include "actors/serial_rounds.hpp"

#include <caf/typed_response_promise.hpp>

#include <chrono>
#include <optional>

namespace vcs::actors {

struct billing_scheduler_state {
  static inline const char* name = "billing-scheduler";

  billing_scheduler_state() = default;

  entity_config_ptr config;
  registry_actor registry;
  // A connection of its own: it holds the sweep's advisory lock.
  db_worker_actor lock_worker;
  std::chrono::milliseconds interval{0};

  serial_rounds<sweep_counts> rounds;

  // The sweep in progress.
  domain::timestamp now{};
  std::optional<caf::typed_response_promise<sweep_counts>> reply;
  sweep_counts counts;
  int64_t after = 0; // last subscription id handed out
  std::size_t outstanding = 0;
};

// Sweeps at start, every `interval` and on demand: under the advisory lock,
// requests outside subscriptions become OVERDUE in one statement, then every
// subscription with something due goes to its subscription actor, a page
// at a time. Each subscription's sweep is one transaction, so a sweep cut
// short leaves whole subscriptions done or untouched, and the next sweep
// finishes the rest.
billing_scheduler_actor::behavior_type
billing_scheduler(billing_scheduler_actor::stateful_pointer<billing_scheduler_state> self,
                  entity_config_ptr config, registry_actor registry, db_worker_actor lock_worker,
                  std::chrono::milliseconds interval);

} // namespace vcs::actors
