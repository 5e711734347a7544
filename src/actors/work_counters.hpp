#pragma once

#include <atomic>
#include <cstdint>

namespace vcs::actors {

// What this node's background work has done since it started, for /metrics:
// counted where the work happens. One actor system per process, so one set
// per process.
struct work_counters {
  // Webhook attempts by outcome: answered 2xx, failed (to be retried, or
  // dead when out of attempts or the endpoint got disabled), and skipped
  // unsent (a disabled endpoint, a tenant without a secret).
  std::atomic<std::uint64_t> webhooks_delivered{0};
  std::atomic<std::uint64_t> webhooks_failed{0};
  std::atomic<std::uint64_t> webhooks_skipped{0};
  // Calls handed to a provider by this node's dial passes, calls a provider
  // refused (recorded as abandoned), and passes that failed (the campaign
  // could not be dialled this round).
  std::atomic<std::uint64_t> calls_placed{0};
  std::atomic<std::uint64_t> calls_refused{0};
  std::atomic<std::uint64_t> dial_passes_failed{0};
  // Billing sweeps this node ran, and those that failed.
  std::atomic<std::uint64_t> billing_sweeps{0};
  std::atomic<std::uint64_t> billing_sweeps_failed{0};
};

work_counters& counters();

} // namespace vcs::actors
