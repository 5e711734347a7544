#pragma once

#include "actors/actors.hpp"
#include "domain/fair_share.hpp"
#include "storage/statement_cancel.hpp"

#include <caf/typed_response_promise.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vcs::actors {

// What readiness and /metrics read of the database workers: the count fixed
// before the dispatcher starts, the rest written by it.
struct db_load {
  explicit db_load(std::size_t n) : workers(n) {}
  const std::size_t workers;
  std::atomic<std::size_t> busy{0};
  std::atomic<std::size_t> waiting{0};
  // Jobs started on a worker, and the nanoseconds they waited for one.
  std::atomic<std::uint64_t> started{0};
  std::atomic<std::uint64_t> waited_ns{0};
};

struct db_dispatcher_state {
  static inline const char* name = "db-dispatcher";

  db_dispatcher_state() = default;

  struct pending {
    db_task task;
    caf::typed_response_promise<db_result> reply;
    // Past this its requester has given up (every requester asks with the
    // pool's timeout): a job still waiting then is dropped, never run late.
    std::chrono::steady_clock::time_point due;
  };

  // A worker, what cancels its statements, how many jobs it was given and,
  // while one runs, that job's deadline.
  struct slot {
    db_worker_actor actor;
    std::shared_ptr<storage::statement_cancel> cancel;
    std::uint64_t jobs = 0;
    std::optional<std::chrono::steady_clock::time_point> due;
  };

  std::vector<slot> workers;
  std::vector<std::size_t> idle;
  std::unique_ptr<domain::fair_share<pending>> share;
  std::chrono::milliseconds timeout{0};
  std::chrono::milliseconds tick{0};
  std::shared_ptr<db_load> load;

  // Queues `task` in its owner's line; the worker it goes to answers.
  caf::typed_response_promise<db_result> run(db_dispatcher_actor::pointer self, db_task& task);
  // Worker `worker` finished a job of `owner` and is free.
  void done(std::size_t worker, std::uint64_t owner);
  // Hands every idle worker the next job in fair order.
  void start_next();
  // Cancels in PostgreSQL every job still running past its deadline: its
  // requester has given up, and the job would hold a worker and its locks
  // for nothing. Runs every `tick`.
  void cancel_overdue(db_dispatcher_actor::pointer self);
  void publish_load();
};

// Spawns `size` (at least 1) detached database workers (linked: they stop
// with it) and shares them among owners: no owner holds more than all
// workers but one, so another tenant's write always finds a worker within
// one job. A job is dropped when it waited past `timeout`, and cancelled in
// PostgreSQL when it runs past it.
db_dispatcher_actor::behavior_type
db_dispatcher(db_dispatcher_actor::stateful_pointer<db_dispatcher_state> self, std::string url,
              std::size_t size, std::chrono::milliseconds timeout, std::shared_ptr<db_load> load);

} // namespace vcs::actors
