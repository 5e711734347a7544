#pragma once

#include "actors/db_task.hpp"

#include <caf/error.hpp>
#include <soci/soci.h>

#include <any>
#include <chrono>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace vcs::actors {

// Runs `work(session)` on `worker` (a database worker, or the pool's
// dispatcher) and hands what it returned, in the worker's reply, to `done`
// in the calling actor, or the error to `failed`.
template <class Self, class Worker, class Work, class Done, class Failed>
void ask_database(Self* self, const Worker& worker, std::chrono::milliseconds timeout,
                  std::uint64_t owner, Work work, Done done, Failed failed) {
  using result_type = std::invoke_result_t<const Work&, soci::session&>;
  self->request(
          worker, timeout,
          db_task{[work = std::move(work)](soci::session& sql) -> std::any { return work(sql); },
                  owner})
      .then([done = std::move(done)](
                db_result& r) mutable { done(std::any_cast<result_type&>(r.value)); },
            [failed = std::move(failed)](caf::error& e) mutable { failed(e); });
}

} // namespace vcs::actors
