#include "actors/maintenance.hpp"

#include "actors/actor_error.hpp"
#include "actors/ask_database.hpp"
#include "storage/lead_statistics.hpp"
#include "storage/retention.hpp"

#include <caf/event_based_actor.hpp>
#include <spdlog/spdlog.h>

#include <utility>

namespace vcs::actors {

namespace {

// Counter changes folded per transaction.
constexpr int32_t fold_batch = 10'000;
// Rows of each kind deleted per statement: a statement's locks cover only
// the rows it deletes.
constexpr int32_t purge_batch = 2'000;

} // namespace

void maintenance_state::fold(maintenance_actor::pointer self) {
  ask_database(
      self, config->pool->dispatcher(), config->pool->timeout(), 0,
      [](soci::session& sql) { return storage::fold_lead_count_changes(sql, fold_batch); },
      [self, this](int64_t moved) {
        fold_failing = false;
        if (moved == fold_batch)
          self->send(self, fold_atom::value);
        else
          self->delayed_send(self, settings.fold_interval, fold_atom::value);
      },
      [self, this](const caf::error& e) {
        if (!std::exchange(fold_failing, true))
          spdlog::warn("folding lead counter changes failed: {}", to_domain_error(e).message);
        self->delayed_send(self, settings.fold_interval, fold_atom::value);
      });
}

void maintenance_state::purge(maintenance_actor::pointer self) {
  ask_database(
      self, config->pool->dispatcher(), config->pool->timeout(), 0,
      [policy = settings.retention](soci::session& sql) {
        return storage::purge_expired(sql, policy, purge_batch);
      },
      [self, this](const storage::purged_rows& gone) {
        purge_failing = false;
        if (gone.total() > 0)
          spdlog::info("retention: deleted {} calls, {} webhook deliveries, {} events, {} import "
                       "rejections, {} imports, {} idempotency keys",
                       gone.calls, gone.deliveries, gone.events, gone.import_rejections,
                       gone.imports, gone.idempotency_keys);
        if (gone.more(purge_batch))
          self->send(self, purge_atom::value);
        else
          self->delayed_send(self, settings.retention_interval, purge_atom::value);
      },
      [self, this](const caf::error& e) {
        if (!std::exchange(purge_failing, true))
          spdlog::warn("retention sweep failed: {}", to_domain_error(e).message);
        self->delayed_send(self, settings.retention_interval, purge_atom::value);
      });
}

maintenance_actor::behavior_type
maintenance(maintenance_actor::stateful_pointer<maintenance_state> self, entity_config_ptr config,
            maintenance_settings settings) {
  self->state.config = std::move(config);
  self->state.settings = settings;
  // The first rounds wait one interval too, so a starting node serves
  // before it sweeps.
  self->delayed_send(self, settings.fold_interval, fold_atom::value);
  self->delayed_send(self, settings.retention_interval, purge_atom::value);
  return {
      [self](fold_atom) { self->state.fold(self); },
      [self](purge_atom) { self->state.purge(self); },
  };
}

} // namespace vcs::actors
