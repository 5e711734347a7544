#include "actors/subscription_actor.hpp"

#include "actors/billing_work.hpp"
#include "storage/subscription_repository.hpp"

#include <caf/event_based_actor.hpp>

namespace vcs::actors {

subscription_actor::behavior_type
subscription(subscription_actor::stateful_pointer<subscription_state> self, int64_t tenant_id,
             int64_t subscription_id, entity_config_ptr config, registry_actor registry) {
  self->state.tenant_id = tenant_id;
  self->state.subscription_id = subscription_id;
  self->state.start(self, std::move(config), std::move(registry), tenant_id);
  self->state.writes.set_prologue([tenant_id, subscription_id](soci::session& sql) {
    storage::lock_subscription(sql, tenant_id, subscription_id);
  });
  return {
      [self](create_atom, domain::payment_request& req) -> caf::result<domain::payment_request> {
        auto cfg = self->state.config;
        auto t = self->state.tenant_id;
        return self->state.write<domain::payment_request>(
            self, [cfg, t, req = std::move(req)](soci::session& sql) -> std::any {
              return issue_payment(sql, *cfg, t, req);
            });
      },
      [self](update_atom, payment_change& change) -> caf::result<domain::payment_request> {
        auto t = self->state.tenant_id;
        auto s = self->state.subscription_id;
        return self->state.write<domain::payment_request>(
            self, [t, s, change = std::move(change)](soci::session& sql) -> std::any {
              return change_payment(sql, t, s, change);
            });
      },
      [self](usage_atom, minutes_change m) -> caf::result<domain::usage_record> {
        auto t = self->state.tenant_id;
        auto s = self->state.subscription_id;
        return self->state.write<domain::usage_record>(
            self, [t, s, m](soci::session& sql) -> std::any {
              return record_minutes(sql, t, s, m.hundredths);
            });
      },
      [self](addon_atom, minutes_change m) -> caf::result<domain::usage_record> {
        auto t = self->state.tenant_id;
        auto s = self->state.subscription_id;
        return self->state.write<domain::usage_record>(
            self, [t, s, m](soci::session& sql) -> std::any {
              return add_addon_minutes(sql, t, s, m.hundredths);
            });
      },
      [self](usage_atom, call_atom, int64_t call_id) -> caf::result<bool> {
        auto t = self->state.tenant_id;
        auto s = self->state.subscription_id;
        return self->state.write<bool>(self, [t, s, call_id](soci::session& sql) -> std::any {
          return record_call_minutes(sql, t, s, call_id);
        });
      },
      [self](sweep_atom, sweep_request req) -> caf::result<sweep_counts> {
        auto cfg = self->state.config;
        auto t = self->state.tenant_id;
        auto s = self->state.subscription_id;
        return self->state.write<sweep_counts>(
            self, [cfg, t, s, req](soci::session& sql) -> std::any {
              return sweep_subscription(sql, *cfg, t, s, req.now);
            });
      },
      [self](idle_atom) {
        auto& st = self->state;
        st.idle.tick(self, st.writes.busy(), st.registry, subscr_atom::value, st.tenant_id,
                     st.subscription_id);
      },
  };
}

} // namespace vcs::actors
