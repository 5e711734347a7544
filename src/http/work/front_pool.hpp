#pragma once

#include "actors/actors.hpp"
#include "http/work/fair_queue.hpp"
#include "http/work/request_worker.hpp"
#include "http/work/request_worker_actor.hpp"

#include <caf/fwd.hpp>

#include <memory>
#include <vector>

namespace vcs::http {

// The request workers behind one listener, shared fairly among its clients
// (fair_queue): each listener has its own, so a flood of the public API
// leaves the operator plane its workers.
class front_pool {
public:
  front_pool(caf::actor_system& sys, fair_queue_settings settings,
             std::shared_ptr<const services> svc, const std::string& database_url);

  // Thread-safe; called from the I/O threads. Answers at once, without a
  // worker, 503 when the listener has its most requests in hand and 429 when
  // the client has.
  void dispatch(http_call call) const;

  // Since when every worker has been busy with requests waiting (readiness).
  std::optional<std::chrono::steady_clock::time_point> saturated_since() const {
    return queue_->saturated_since();
  }
  worker_load load() const { return queue_->load(); }

  // Stops the workers. Once they have ended (the actor system awaited),
  // drop_queued() lets go of the requests they never took.
  void shutdown();
  void drop_queued() { queue_->drop_queued(); }

private:
  std::shared_ptr<const services> svc_;
  std::shared_ptr<fair_queue> queue_;
  std::vector<request_worker_actor> workers_;
};

} // namespace vcs::http
