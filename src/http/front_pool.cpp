#include "http/front_pool.hpp"

#include "http/error_mapping.hpp"

#include <caf/actor_system.hpp>
#include <caf/send.hpp>
#include <caf/spawn_options.hpp>

namespace vcs::http {

front_pool::front_pool(caf::actor_system& sys, std::size_t size,
                       std::shared_ptr<const route_tables> routes,
                       std::shared_ptr<const services> svc, const std::string& database_url)
    : svc_(svc) {
  for (std::size_t i = 0; i < std::max<std::size_t>(1, size); ++i) {
    auto load = std::make_shared<std::atomic<int>>(0);
    workers_.push_back(sys.spawn<caf::detached>(request_worker, routes, svc, database_url, load));
    loads_.push_back(std::move(load));
  }
}

void front_pool::dispatch(actors::http_call call) const {
  if (auto limit = svc_->max_queued_requests; limit != 0) {
    std::size_t queued = 0;
    for (const auto& l : loads_)
      queued += static_cast<std::size_t>(l->load(std::memory_order_relaxed));
    if (queued >= limit) {
      svc_->metrics->record("shed", 503, std::chrono::steady_clock::now() - call.request.received);
      call.reply(overloaded_response());
      return;
    }
  }
  caf::anon_send(workers_[actors::pick_least_loaded(loads_)], std::move(call));
}

void front_pool::shutdown() {
  for (auto& w : workers_)
    caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

} // namespace vcs::http
