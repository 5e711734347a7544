#include "actors/import_sweeper.hpp"

#include "actors/actor_error.hpp"
#include "actors/ask_database.hpp"
#include "storage/import_job_repository.hpp"

#include <caf/event_based_actor.hpp>
#include <spdlog/spdlog.h>

namespace vcs::actors {

namespace {

constexpr int32_t jobs_per_sweep = 100;

using pending_list = std::vector<storage::pending_import>;

void dispatch(import_sweeper_actor::stateful_pointer<import_sweeper_state> self,
              const pending_list& jobs) {
  for (const auto& job : jobs)
    self->request(self->state.registry, std::chrono::seconds(10), caf::get_atom::value,
                  campaign_atom::value, job.tenant_id, job.campaign_id)
        .then([job_id = job.job_id](
                  campaign_actor& c) { caf::anon_send(c, import_atom::value, job_id); },
              [](caf::error&) {});
}

} // namespace

import_sweeper_actor::behavior_type
import_sweeper(import_sweeper_actor::stateful_pointer<import_sweeper_state> self,
               entity_config_ptr config, registry_actor registry,
               std::chrono::milliseconds interval) {
  self->state.config = std::move(config);
  self->state.registry = std::move(registry);
  self->state.interval = interval;
  self->send(self, tick_atom::value);
  return {
      [self](tick_atom) {
        auto cfg = self->state.config;
        ask_database(
            self, cfg->pool->dispatcher(), cfg->pool->timeout(), 0,
            [cfg](soci::session& sql) {
              return storage::claimable_imports(sql, cfg->node_id,
                                                cfg->settings.import_stale_seconds, jobs_per_sweep);
            },
            [self](pending_list& claimed) { dispatch(self, claimed); },
            [](const caf::error& e) {
              spdlog::warn("import sweep failed: {}", to_domain_error(e).message);
            });
        self->delayed_send(self, self->state.interval, tick_atom::value);
      },
  };
}

} // namespace vcs::actors
