#pragma once

#include "actors/actors.hpp"
#include "actors/least_loaded.hpp"
#include "http/request_worker.hpp"

#include <caf/fwd.hpp>

#include <atomic>
#include <memory>
#include <vector>

namespace vcs::http {

// The request workers behind both listeners. A request goes to the least
// loaded worker so a slow query does not hold up requests queued behind it.
class front_pool {
public:
  front_pool(caf::actor_system& sys, std::size_t size, std::shared_ptr<const route_tables> routes,
             std::shared_ptr<const services> svc, const std::string& database_url);

  // Thread-safe; called from the I/O threads. Answers 503 at once when
  // services::max_queued_requests are queued already.
  void dispatch(actors::http_call call) const;

  void shutdown();

private:
  std::shared_ptr<const services> svc_;
  std::vector<actors::request_worker_actor> workers_;
  actors::load_counters loads_;
};

} // namespace vcs::http
