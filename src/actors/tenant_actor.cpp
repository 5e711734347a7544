#include "actors/tenant_actor.hpp"

#include "domain/api_key.hpp"
#include "storage/api_key_repository.hpp"
#include "storage/tenant_repository.hpp"

#include <caf/event_based_actor.hpp>

namespace vcs::actors {

namespace {

domain::error key_not_found() {
  return domain::not_found("API key not found");
}

} // namespace

tenant_actor::behavior_type tenant(tenant_actor::stateful_pointer<tenant_state> self,
                                   int64_t tenant_id, std::shared_ptr<const db_pool> pool,
                                   registry_actor registry,
                                   std::chrono::milliseconds idle_timeout) {
  auto& st = self->state;
  st.tenant_id = tenant_id;
  st.pool = std::move(pool);
  st.registry = std::move(registry);
  st.idle_timeout = idle_timeout;
  st.touch();
  self->delayed_send(self, idle_timeout, idle_atom::value);
  return {
      [self](update_atom, storage::tenant_patch& patch) -> caf::result<domain::tenant> {
        auto& st = self->state;
        st.touch();
        auto id = st.tenant_id;
        return st.writes.submit<domain::tenant>(
            self, *st.pool, [id, patch = std::move(patch)](soci::session& sql) -> std::any {
              auto t = storage::update_tenant(sql, id, patch);
              if (!t)
                throw storage::failure(domain::not_found("Tenant not found"));
              return *t;
            });
      },
      [self](create_atom, api_key_request& req) -> caf::result<issued_api_key> {
        auto& st = self->state;
        st.touch();
        auto id = st.tenant_id;
        return st.writes.submit<issued_api_key>(
            self, *st.pool, [id, name = std::move(req.name)](soci::session& sql) -> std::any {
              auto key = domain::generate_api_key();
              auto info = storage::insert_api_key(sql, id, name, key.hash, key.masked_key);
              return issued_api_key{std::move(info), std::move(key.key)};
            });
      },
      [self](update_atom, api_key_status_change& change) -> caf::result<domain::api_key_info> {
        auto& st = self->state;
        st.touch();
        auto id = st.tenant_id;
        return st.writes.submit<domain::api_key_info>(
            self, *st.pool, [id, change](soci::session& sql) -> std::any {
              auto info = storage::set_api_key_status(sql, id, change.key_id, change.status);
              if (!info)
                throw storage::failure(key_not_found());
              return *info;
            });
      },
      [self](delete_atom, api_key_removal& removal) -> caf::result<bool> {
        auto& st = self->state;
        st.touch();
        auto id = st.tenant_id;
        return st.writes.submit<bool>(self, *st.pool,
                                      [id, removal](soci::session& sql) -> std::any {
                                        if (!storage::delete_api_key(sql, id, removal.key_id))
                                          throw storage::failure(key_not_found());
                                        return true;
                                      });
      },
      [self](idle_atom) {
        auto& st = self->state;
        auto idle_for = std::chrono::steady_clock::now() - st.last_active;
        if (st.retiring || st.writes.busy() || idle_for < st.idle_timeout) {
          self->delayed_send(self, st.idle_timeout, idle_atom::value);
          return;
        }
        st.retiring = true;
        self->request(st.registry, std::chrono::seconds(10), retire_atom::value, tenant_atom::value,
                      st.tenant_id)
            .then([self](bool) { self->quit(); },
                  [self](caf::error&) {
                    self->state.retiring = false;
                    self->delayed_send(self, self->state.idle_timeout, idle_atom::value);
                  });
      },
  };
}

} // namespace vcs::actors
