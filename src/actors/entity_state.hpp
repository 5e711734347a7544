#pragma once

#include "actors/actors.hpp"
#include "actors/db_pool.hpp"
#include "actors/group_commit.hpp"
#include "actors/idle_retirement.hpp"

#include <chrono>
#include <memory>

namespace vcs::actors {

// What every entity actor's state shares: the database workers, the
// registry it retires through, idle tracking and group commit of writes.
struct entity_state {
  entity_state() = default;

  std::shared_ptr<const db_pool> pool;
  registry_actor registry;
  idle_retirement idle;
  group_commit writes;

  template <class Self>
  void start(Self* self, std::shared_ptr<const db_pool> workers, registry_actor owner,
             std::chrono::milliseconds idle_timeout) {
    pool = std::move(workers);
    registry = std::move(owner);
    idle.start(self, idle_timeout);
  }

  // Queues `work` for the next group commit; its result of type T answers
  // the current request.
  template <class T, class Self>
  caf::typed_response_promise<T> write(Self* self, group_commit::work_fn work) {
    idle.touch();
    return writes.submit<T>(self, *pool, std::move(work));
  }
};

} // namespace vcs::actors
