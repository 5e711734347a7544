#pragma once

#include "actors/actors.hpp"

#include <caf/fwd.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace vcs::actors {

struct db_load;

// The detached database workers that run entity actors' and schedulers'
// transactions, behind a dispatcher that shares them fairly among tenants:
// a job waits in its owner's queue, not behind another tenant's slow
// transaction on one worker.
class db_pool {
public:
  db_pool() = default;
  // A pool whose dispatcher was spawned elsewhere: tests drive one on CAF's
  // test coordinator.
  db_pool(db_dispatcher_actor dispatcher, std::chrono::milliseconds timeout)
      : dispatcher_(std::move(dispatcher)), timeout_(timeout) {}

  static db_pool spawn(caf::actor_system& sys, const std::string& url, std::size_t size,
                       std::chrono::milliseconds timeout);

  // Where database work is sent; ask it with timeout().
  const db_dispatcher_actor& dispatcher() const noexcept { return dispatcher_; }

  std::chrono::milliseconds timeout() const noexcept { return timeout_; }

  // True when every worker is busy and as many jobs again wait.
  bool saturated() const;

  // The workers now, and the jobs started and their total wait so far
  // (/metrics); all zero for a pool spawned elsewhere.
  struct load_figures {
    std::size_t workers = 0;
    std::size_t busy = 0;
    std::size_t waiting = 0;
    std::uint64_t started = 0;
    double waited_seconds = 0;
  };
  load_figures load() const;

  // Stops the dispatcher and its workers (their sessions close with them).
  void shutdown();

private:
  db_dispatcher_actor dispatcher_;
  std::shared_ptr<const db_load> load_;
  std::chrono::milliseconds timeout_{30'000};
};

} // namespace vcs::actors
