#pragma once

#include "actors/actors.hpp"
#include "storage/database.hpp"

#include <atomic>
#include <chrono>
#include <memory>

namespace vcs::actors {

struct health_probe_state {
  static inline const char* name = "health-probe";

  health_probe_state() = default;

  std::unique_ptr<storage::lazy_session> sql;
  std::shared_ptr<std::atomic<bool>> database_up;
  std::chrono::milliseconds interval{0};
};

// Spawn with caf::detached: a probe blocks on the database (a connection
// attempt to a host that went away may take seconds).
health_probe_actor::behavior_type
health_probe(health_probe_actor::stateful_pointer<health_probe_state> self, std::string url,
             std::shared_ptr<std::atomic<bool>> database_up, std::chrono::milliseconds interval);

} // namespace vcs::actors
