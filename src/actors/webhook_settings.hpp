#pragma once

#include <chrono>
#include <cstdint>

namespace vcs::actors {

// The webhook dispatcher's settings; the defaults are the service's
// (app::config nests this struct).
struct webhook_settings {
  std::chrono::milliseconds interval{250};
  // Deliveries in flight per node at most.
  int32_t batch = 64;
  // Attempts before a delivery is dead (the first one included).
  int32_t max_attempts = 8;
  // Backoff after attempt n: base * 2^(n-1), at most `max_backoff`.
  std::chrono::milliseconds base_backoff{5'000};
  std::chrono::milliseconds max_backoff{3'600'000};
  std::chrono::milliseconds timeout{10'000};
};

} // namespace vcs::actors
