#pragma once

#include "actors/db_pool.hpp"
#include "actors/entity_settings.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace vcs::actors {

class voice_gateway;

// What every entity actor of a node shares, fixed at start-up.
struct entity_config {
  std::shared_ptr<const db_pool> pool;
  entity_settings settings;
  // A write still waiting for its group commit this long after it came is
  // dropped unrun (its client was answered 503 by then): the request
  // deadlines' `answer`.
  std::chrono::milliseconds max_write_wait{30'000};
  // This node's name in import claims (unique per process).
  std::string node_id;
  // Places calls (the simulated provider unless configured otherwise).
  std::shared_ptr<voice_gateway> gateway;
  // When a campaign's provider has no free slot, when to look again.
  std::chrono::seconds dial_busy_poll{1};
};

using entity_config_ptr = std::shared_ptr<const entity_config>;

} // namespace vcs::actors
