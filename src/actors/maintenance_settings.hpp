#pragma once

#include "storage/retention.hpp"

#include <chrono>
#include <cstdint>

namespace vcs::actors {

// The maintenance actor's settings; the defaults are the service's
// (app::config nests this struct).
struct maintenance_settings {
  // How often the lead counters' changes are folded into their rows: a
  // campaign's statistics read adds the changes not folded yet.
  std::chrono::milliseconds fold_interval{1'000};
  // How often rows past their retention are looked for.
  std::chrono::milliseconds retention_interval{60'000};
  storage::retention_policy retention;
};

} // namespace vcs::actors
