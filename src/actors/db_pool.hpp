#pragma once

#include "actors/actors.hpp"
#include "actors/least_loaded.hpp"

#include <caf/fwd.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace vcs::actors {

// The detached database workers that run entity actors' transactions, and
// the choice of worker for each job: the least loaded, so one slow
// transaction does not hold up the jobs queued behind it.
class db_pool {
public:
  db_pool() = default;

  static db_pool spawn(caf::actor_system& sys, const std::string& url, std::size_t size,
                       std::chrono::milliseconds timeout);

  // Marks a job as queued on the returned worker; the worker unmarks it.
  db_worker_actor pick() const;

  std::chrono::milliseconds timeout() const noexcept { return timeout_; }

  // True when every worker is running a job and has another queued.
  bool saturated() const;

  // Stops every worker (their sessions close with them).
  void shutdown();

private:
  std::vector<db_worker_actor> workers_;
  load_counters loads_;
  std::chrono::milliseconds timeout_{30'000};
};

} // namespace vcs::actors
