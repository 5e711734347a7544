#pragma once

#include "actors/actors.hpp"
#include "actors/db_pool.hpp"
#include "actors/entity_config.hpp"
#include "actors/group_commit.hpp"
#include "actors/idle_retirement.hpp"

#include <chrono>
#include <memory>

namespace vcs::actors {

// What every entity actor's state shares: the database workers, the
// registry it retires through, idle tracking and group commit of writes.
struct entity_state {
  entity_state() = default;

  entity_config_ptr config;
  registry_actor registry;
  idle_retirement idle;
  group_commit writes;

  template <class Self>
  void start(Self* self, entity_config_ptr cfg, registry_actor owner, int64_t tenant_id) {
    config = std::move(cfg);
    registry = std::move(owner);
    writes.set_max_batch(config->max_batch);
    writes.set_owner(static_cast<std::uint64_t>(tenant_id));
    idle.start(self, config->idle_timeout);
  }

  // Queues `work` for the next group commit; its result of type T answers
  // the current request.
  template <class T, class Self>
  caf::typed_response_promise<T> write(Self* self, group_commit::work_fn work) {
    idle.touch();
    return writes.submit<T>(self, *config->pool, std::move(work));
  }

  // Queues `work` for the next group commit with callbacks instead of a
  // response (for the actor's own follow-up work).
  template <class Self>
  void write_then(Self* self, group_commit::work_fn work, std::function<void(std::any&)> done,
                  std::function<void(const caf::error&)> failed) {
    idle.touch();
    writes.run(self, *config->pool, std::move(work), std::move(done), std::move(failed));
  }
};

} // namespace vcs::actors
