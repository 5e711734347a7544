#include "actors/registry.hpp"

#include "actors/tenant_actor.hpp"

namespace vcs::actors {

registry_actor::behavior_type registry(registry_actor::stateful_pointer<registry_state> self,
                                       std::shared_ptr<const db_pool> pool,
                                       std::chrono::milliseconds idle_timeout) {
  self->state.pool = std::move(pool);
  self->state.idle_timeout = idle_timeout;
  return {
      [self](caf::get_atom, tenant_atom, int64_t id) -> tenant_actor {
        auto& tenants = self->state.tenants;
        if (auto it = tenants.find(id); it != tenants.end())
          return it->second;
        auto handle = self->spawn(tenant, id, self->state.pool, registry_actor{self},
                                  self->state.idle_timeout);
        tenants.emplace(id, handle);
        return handle;
      },
      [self](retire_atom, tenant_atom, int64_t id) {
        self->state.tenants.erase(id);
        return true;
      },
  };
}

} // namespace vcs::actors
