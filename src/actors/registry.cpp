#include "actors/registry.hpp"

#include "actors/campaign_actor.hpp"
#include "actors/tenant_actor.hpp"

#include <caf/actor_cast.hpp>

namespace vcs::actors {

namespace {

// Stops every entity actor with the registry, so shutdown leaves none behind.
template <class Self, class Map> void stop_all(Self* self, Map& actors, const caf::error& reason) {
  for (auto& [_, handle] : actors)
    self->send_exit(handle, reason);
  actors.clear();
}

} // namespace

registry_actor::behavior_type registry(registry_actor::stateful_pointer<registry_state> self,
                                       entity_config_ptr config) {
  self->state.config = std::move(config);
  self->set_exit_handler([self](caf::exit_msg& msg) {
    stop_all(self, self->state.tenants, msg.reason);
    stop_all(self, self->state.campaigns, msg.reason);
    self->quit(msg.reason);
  });
  auto me = caf::actor_cast<registry_actor>(self);
  return {
      [self, me](caf::get_atom, tenant_atom, int64_t id) -> tenant_actor {
        auto& st = self->state;
        if (auto it = st.tenants.find(id); it != st.tenants.end())
          return it->second;
        auto handle = self->spawn(tenant, id, st.config, me);
        st.tenants.emplace(id, handle);
        return handle;
      },
      [self, me](caf::get_atom, campaign_atom, int64_t tenant_id,
                 int64_t campaign_id) -> campaign_actor {
        auto& st = self->state;
        auto key = std::make_pair(tenant_id, campaign_id);
        if (auto it = st.campaigns.find(key); it != st.campaigns.end())
          return it->second;
        auto handle = self->spawn(campaign, tenant_id, campaign_id, st.config, me);
        st.campaigns.emplace(key, handle);
        return handle;
      },
      [self](retire_atom, tenant_atom, int64_t id) {
        self->state.tenants.erase(id);
        return true;
      },
      [self](retire_atom, campaign_atom, int64_t tenant_id, int64_t campaign_id) {
        self->state.campaigns.erase(std::make_pair(tenant_id, campaign_id));
        return true;
      },
  };
}

} // namespace vcs::actors
