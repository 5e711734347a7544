#pragma once

#include <chrono>
#include <cstdint>

namespace vcs::actors {

// The dial scheduler's settings; the defaults are the service's
// (app::config nests this struct).
struct dial_scheduler_settings {
  std::chrono::milliseconds interval{1000};
  // How long a node may keep a campaign it took before another may take it.
  int32_t lease_seconds = 30;
  // Campaigns woken per round.
  int32_t campaigns_per_round = 500;
  // An open call older than this is ended as lost.
  int32_t lost_call_seconds = 7200;
};

} // namespace vcs::actors
