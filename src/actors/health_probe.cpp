#include "actors/health_probe.hpp"

#include <spdlog/spdlog.h>

namespace vcs::actors {

health_probe_actor::behavior_type
health_probe(health_probe_actor::stateful_pointer<health_probe_state> self, std::string url,
             std::shared_ptr<std::atomic<bool>> database_up, std::chrono::milliseconds interval) {
  auto& st = self->state;
  // A zero idle threshold: every probe is a real round trip.
  st.sql = std::make_unique<storage::lazy_session>(std::move(url), std::chrono::milliseconds(0));
  st.database_up = std::move(database_up);
  st.interval = interval;
  self->send(self, tick_atom::value);
  return {
      [self](tick_atom) {
        auto& st = self->state;
        bool up = false;
        try {
          storage::ping(st.sql->get());
          up = true;
        } catch (const std::exception& e) {
          if (st.database_up->load())
            spdlog::warn("health probe: database unavailable: {}", e.what());
        }
        st.database_up->store(up);
        self->delayed_send(self, st.interval, tick_atom::value);
      },
  };
}

} // namespace vcs::actors
