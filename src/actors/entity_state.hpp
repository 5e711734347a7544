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
    writes.set_max_batch(config->settings.max_batch);
    writes.set_max_wait(config->max_write_wait);
    writes.set_owner(static_cast<std::uint64_t>(tenant_id));
    idle.start(self, config->settings.idle_timeout);
  }

  // Queues `work(session)` for the next group commit; its result answers
  // the current request.
  template <class Self, class Work> auto write(Self* self, Work work) {
    idle.touch();
    return writes.submit(self, *config->pool, std::move(work));
  }

  // Queues `work(session)` for the next group commit with callbacks instead
  // of a response (for the actor's own follow-up work); answers its place
  // in line.
  template <class Self, class Work, class Done, class Failed>
  group_commit::ticket write_then(Self* self, Work work, Done done, Failed failed) {
    idle.touch();
    return writes.run(self, *config->pool, std::move(work), std::move(done), std::move(failed));
  }
};

} // namespace vcs::actors
