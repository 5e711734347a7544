#pragma once

// Fair sharing of a listener's request workers among clients (a tenant, a
// key not known yet, a client address, or an operator token: the request's
// share, chosen by its session). Requests wait in one FIFO
// queue per client; a freed worker takes the next request round robin across
// the clients that have one waiting, so a client that floods the node waits
// behind its own requests while another client's request is next in line.
// Work-conserving: a client alone may keep every worker but one busy, and the
// last one too while nobody else waits; one client never holds more than
// `per_client_workers` at once, so a newcomer finds a worker within one
// request of the flood. Thread-safe: the I/O threads push, workers take.

#include "http/server/http_call.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace vcs::http {

// A listener's share of its workers, derived from the configuration
// (app::public_share, app::operator_share), whose defaults are the only
// ones: nothing here is a default.
struct fair_queue_settings {
  std::size_t workers = 0;
  // Most workers one client may hold at once (at least 1).
  std::size_t per_client_workers = 0;
  // Most requests of one client waiting or running before the next is
  // refused (429); 0 = no limit.
  std::size_t per_client_pending = 0;
  // Most requests waiting or running in all before the next is refused
  // (503); 0 = no limit.
  std::size_t max_pending = 0;
};

// A listener's request workers right now.
struct worker_load {
  std::size_t workers = 0;
  std::size_t busy = 0;
  std::size_t queued = 0;
};

// The shares a request can count for (inbound_request::share).
// An operator's: the token of its Authorization header as authentication
// reads it (the whole header when it is not a bearer token).
std::uint64_t client_key(std::string_view authorization);
// A tenant's, whichever of its keys it came with.
std::uint64_t tenant_client_key(std::int64_t tenant_id);
// A client address's, for requests without a key.
std::uint64_t address_client_key(std::string_view address);

class fair_queue {
public:
  explicit fair_queue(fair_queue_settings settings);

  enum class verdict { run, queued, client_over_limit, overloaded };
  struct admission {
    verdict outcome = verdict::queued;
    // With verdict::run: the idle worker to send the call to.
    std::size_t worker = 0;
    std::optional<http_call> call;
  };

  // Admits a request: to an idle worker at once when its client is under
  // its share, otherwise into its client's queue; or refuses it, handing the
  // call back to be answered.
  admission push(http_call call);

  // Worker `worker` finished a request of `client`: the next request for it
  // (round robin across clients under their share), or nullopt, and the
  // worker counts as idle.
  std::optional<http_call> finished(std::size_t worker, std::uint64_t client);

  // Since when every worker has been busy with requests waiting, if so.
  std::optional<std::chrono::steady_clock::time_point> saturated_since() const;

  worker_load load() const;

  // Drops every queued request unanswered, once no worker is left to take
  // them: each holds its connection, which must go before the listeners'
  // I/O context.
  void drop_queued();

private:
  struct client_state {
    std::deque<http_call> queue;
    std::size_t running = 0;
    bool in_rotation = false;
  };

  std::optional<http_call> take_next_locked();
  void note_saturation_locked();

  fair_queue_settings settings_;
  mutable std::mutex mutex_;
  std::unordered_map<std::uint64_t, client_state> clients_;
  // Clients with queued requests, in turn order.
  std::deque<std::uint64_t> rotation_;
  std::vector<std::size_t> idle_;
  std::size_t waiting_ = 0;
  std::size_t running_ = 0;
  std::optional<std::chrono::steady_clock::time_point> saturated_since_;
};

} // namespace vcs::http
