#pragma once

#include "actors/actors.hpp"

#include <chrono>

namespace vcs::actors {

// When an entity actor last worked, and the retirement handshake: an actor
// idle for `timeout` asks the registry to forget it, then quits; a request
// that raced with this is retried by the caller (see http/work/handler.hpp).
struct idle_retirement {
  std::chrono::milliseconds timeout{0};
  std::chrono::steady_clock::time_point last_active{};
  bool retiring = false;

  idle_retirement() = default;

  void touch() { last_active = std::chrono::steady_clock::now(); }

  // Arms the first idle check.
  template <class Self> void start(Self* self, std::chrono::milliseconds idle_timeout) {
    timeout = idle_timeout;
    touch();
    self->delayed_send(self, timeout, idle_atom::value);
  }

  // Handles an idle tick: retires when nothing happened for `timeout` and no
  // write is pending. Always re-arms: a tick sent to an actor that quit is
  // dropped. `key` is the registry's retire message after retire_atom (kind
  // atom and ids).
  template <class Self, class... Key>
  void tick(Self* self, bool busy, const registry_actor& registry, Key... key) {
    auto idle_for = std::chrono::steady_clock::now() - last_active;
    if (!busy && idle_for >= timeout)
      retire(self, registry, key...);
    self->delayed_send(self, timeout, idle_atom::value);
  }

  // Asks the registry to forget the actor, then quits; if the registry does
  // not answer, the actor stays. The caller knows no write is pending.
  template <class Self, class... Key>
  void retire(Self* self, const registry_actor& registry, Key... key) {
    if (retiring)
      return;
    retiring = true;
    self->request(registry, std::chrono::seconds(10), retire_atom::value, key...)
        .then([self](bool) { self->quit(); }, [this](caf::error&) { retiring = false; });
  }
};

} // namespace vcs::actors
