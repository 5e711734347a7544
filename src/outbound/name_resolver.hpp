#pragma once

// Outbound name lookups, apart from the event loop and shared fairly across
// tenants. getaddrinfo blocks (Boost 1.74 runs every async_resolve of an
// io_context on one background thread, so one slow name server held every
// tenant's lookups behind it), so lookups run on a bounded pool of threads
// of their own. A tenant has at most `per_tenant` lookups running and
// `per_tenant_waiting` waiting; a free thread takes the next one from the
// tenant holding the fewest (domain::fair_share). Every lookup has a
// deadline: its caller is answered then, whatever the thread still waits
// for. A name that failed or timed out is answered from memory for
// `failure_ttl` (at most `remembered` names), so a slow or dead name server
// costs each tenant one wait, not one per request. Successes are not
// remembered: every request resolves again (DNS rebinding is checked at
// each one). Thread-safe.

#include "outbound/beast.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace vcs::outbound {

struct name_resolver_settings {
  std::size_t threads = 8;
  std::size_t per_tenant = 2;
  std::size_t per_tenant_waiting = 64;
  std::chrono::milliseconds failure_ttl{30'000};
  std::size_t remembered = 10'000;
};

class name_resolver {
public:
  // The addresses of a name, or why there are none.
  struct answer {
    std::vector<tcp::endpoint> endpoints;
    std::string error;
  };
  using done_fn = std::function<void(answer)>;

  // Deadlines are kept on `io`, which must outlive the lookups' deadlines.
  name_resolver(net::io_context& io, name_resolver_settings settings);
  // Lookups still inside getaddrinfo finish on their own; their answers go
  // nowhere: every caller's function not called yet is released here, while
  // `io` still lives (an answer being given is waited for).
  ~name_resolver();
  name_resolver(const name_resolver&) = delete;
  name_resolver& operator=(const name_resolver&) = delete;

  // Resolves `host` for `tenant`; `done` runs once, on a lookup thread or an
  // I/O thread of `io`, by `deadline` at the latest.
  void resolve(std::int64_t tenant, std::string host, std::uint16_t port,
               std::chrono::steady_clock::time_point deadline, done_fn done);

private:
  struct shared;
  std::shared_ptr<shared> shared_;
  net::io_context& io_;
};

} // namespace vcs::outbound
