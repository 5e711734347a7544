#pragma once

#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vcs::domain {

// What the campaign read adds to the stored record: its leads by call
// status, as counted at `counted_at` (each node keeps a count for up to
// storage::lead_statistics_ttl), and when it calls next (next_dial_time).
struct campaign_progress {
  std::vector<std::pair<std::string, int64_t>> call_statuses; // only statuses some lead has
  int64_t answered = 0;
  int64_t dialable = 0;
  std::optional<timestamp> next_dial_at;
  timestamp counted_at{};
};

} // namespace vcs::domain
