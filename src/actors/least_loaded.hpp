#pragma once

#include <atomic>
#include <memory>
#include <vector>

namespace vcs::actors {

// Per-worker counters of queued jobs; the dispatcher increments, the worker
// decrements when done.
using load_counters = std::vector<std::shared_ptr<std::atomic<int>>>;

// Index of the least loaded worker (the first idle one wins), already
// counted as one job busier.
inline std::size_t pick_least_loaded(const load_counters& loads) {
  std::size_t best = 0;
  int best_load = loads[0]->load(std::memory_order_relaxed);
  for (std::size_t i = 1; i < loads.size() && best_load > 0; ++i) {
    int l = loads[i]->load(std::memory_order_relaxed);
    if (l < best_load) {
      best = i;
      best_load = l;
    }
  }
  loads[best]->fetch_add(1, std::memory_order_relaxed);
  return best;
}

} // namespace vcs::actors
