#pragma once

#include "actors/db_task.hpp"

#include <caf/error.hpp>
#include <soci/soci.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace vcs::actors {

// Runs `work(session)` on `worker` (a database worker, or the pool's
// dispatcher) and hands its result, typed, to `done` in the calling actor,
// or the error to `failed`. The result waits in the closure while the reply
// travels: the reply's arrival orders the worker's write before the read.
template <class Self, class Worker, class Work, class Done, class Failed>
void ask_database(Self* self, const Worker& worker, std::chrono::milliseconds timeout,
                  std::uint64_t owner, Work work, Done done, Failed failed) {
  using result_type = std::invoke_result_t<const Work&, soci::session&>;
  auto result = std::make_shared<std::optional<result_type>>();
  self->request(worker, timeout,
                db_task{[work = std::move(work), result](soci::session& sql) {
                          result->emplace(work(sql));
                        },
                        owner})
      .then([result, done = std::move(done)](db_done) mutable { done(**result); },
            [failed = std::move(failed)](caf::error& e) mutable { failed(e); });
}

} // namespace vcs::actors
