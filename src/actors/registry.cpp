#include "actors/registry.hpp"

#include "actors/campaign_actor.hpp"
#include "actors/subscription_actor.hpp"
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

// The actor under `key`, spawned with `spawn` when there is none.
template <class Map, class Spawn>
typename Map::mapped_type find_or_spawn(Map& actors, const typename Map::key_type& key,
                                        Spawn spawn) {
  if (auto it = actors.find(key); it != actors.end())
    return it->second;
  auto handle = spawn();
  actors.emplace(key, handle);
  return handle;
}

} // namespace

registry_actor::behavior_type registry(registry_actor::stateful_pointer<registry_state> self,
                                       entity_config_ptr config) {
  self->state.config = std::move(config);
  self->set_exit_handler([self](caf::exit_msg& msg) {
    stop_all(self, self->state.tenants, msg.reason);
    stop_all(self, self->state.campaigns, msg.reason);
    stop_all(self, self->state.subscriptions, msg.reason);
    self->quit(msg.reason);
  });
  auto me = caf::actor_cast<registry_actor>(self);
  return {
      [self, me](caf::get_atom, tenant_atom, int64_t id) -> tenant_actor {
        auto& st = self->state;
        return find_or_spawn(st.tenants, id,
                             [&] { return self->spawn(tenant, id, st.config, me); });
      },
      [self, me](caf::get_atom, campaign_atom, int64_t tenant_id,
                 int64_t campaign_id) -> campaign_actor {
        auto& st = self->state;
        return find_or_spawn(st.campaigns, std::make_pair(tenant_id, campaign_id), [&] {
          return self->spawn(campaign, tenant_id, campaign_id, st.config, me);
        });
      },
      [self, me](caf::get_atom, subscr_atom, int64_t tenant_id,
                 int64_t subscription_id) -> subscription_actor {
        auto& st = self->state;
        return find_or_spawn(st.subscriptions, std::make_pair(tenant_id, subscription_id), [&] {
          return self->spawn(subscription, tenant_id, subscription_id, st.config, me);
        });
      },
      [self](retire_atom, tenant_atom, int64_t id) {
        self->state.tenants.erase(id);
        return true;
      },
      [self](retire_atom, campaign_atom, int64_t tenant_id, int64_t campaign_id) {
        self->state.campaigns.erase(std::make_pair(tenant_id, campaign_id));
        return true;
      },
      [self](retire_atom, subscr_atom, int64_t tenant_id, int64_t subscription_id) {
        self->state.subscriptions.erase(std::make_pair(tenant_id, subscription_id));
        return true;
      },
  };
}

} // namespace vcs::actors
