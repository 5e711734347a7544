#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace vcs::actors {

// The entity actors' settings from the configuration (app::config nests
// them), each default written once, here.
struct entity_settings {
  // Idle time after which an entity actor retires.
  std::chrono::milliseconds idle_timeout{300'000};
  // Most writes one group commit carries; 1 turns batching off.
  std::size_t max_batch = 256;
  // Lead rows inserted per import transaction.
  int32_t import_chunk_size = 5000;
  // A claim older than this belongs to a dead node and may be taken over.
  int32_t import_stale_seconds = 30;
  // Cycle requests the sweep issues are due this many days after their
  // period starts, and their grace period lasts this many days after the due
  // date (also the default grace of cycle requests issued without one).
  int32_t payment_due_days = 7;
  int32_t grace_days = 7;
  // Most calls one dial pass of a campaign places.
  int32_t dial_batch = 50;
  // When a campaign has leads waiting but none callable now, when to look
  // again.
  int32_t dial_idle_poll_seconds = 60;

  std::chrono::hours payment_due() const { return std::chrono::hours(24 * payment_due_days); }
  std::chrono::hours grace_period() const { return std::chrono::hours(24 * grace_days); }
  std::chrono::seconds dial_idle_poll() const {
    return std::chrono::seconds(dial_idle_poll_seconds);
  }
};

} // namespace vcs::actors
