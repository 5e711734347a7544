#pragma once

#include "actors/db_pool.hpp"

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

namespace vcs::actors {

class voice_gateway;

// Settings every entity actor of a node shares, fixed at start-up.
struct entity_config {
  std::shared_ptr<const db_pool> pool;
  // Idle time after which an entity actor retires.
  std::chrono::milliseconds idle_timeout{300'000};
  // Most writes one group commit carries; 1 turns batching off.
  std::size_t max_batch = 256;
  // A write still waiting for its group commit this long after it came is
  // dropped unrun (its client was answered 503 by then): the request
  // deadlines' `answer`.
  std::chrono::milliseconds max_write_wait{30'000};
  // This node's name in import claims (unique per process).
  std::string node_id;
  // Lead rows inserted per import transaction.
  int32_t import_chunk_size = 5000;
  // A claim older than this belongs to a dead node and may be taken over.
  int32_t import_stale_seconds = 30;
  // Cycle requests the sweep issues are due this long after their period
  // starts, and their grace period lasts this long after the due date (also
  // the default grace of cycle requests issued without one).
  std::chrono::hours payment_due{24 * 7};
  std::chrono::hours grace_period{24 * 7};
  // Places calls (the simulated provider unless configured otherwise).
  std::shared_ptr<voice_gateway> gateway;
  // Most calls one dial pass of a campaign places.
  int32_t dial_batch = 50;
  // When a campaign has leads waiting but none callable now (or its
  // provider's slots are all taken), when to look again.
  std::chrono::seconds dial_idle_poll{60};
  std::chrono::seconds dial_busy_poll{1};
};

using entity_config_ptr = std::shared_ptr<const entity_config>;

} // namespace vcs::actors
