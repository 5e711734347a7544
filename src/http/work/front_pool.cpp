#include "http/work/front_pool.hpp"

#include "http/render/error_mapping.hpp"

#include <caf/actor_system.hpp>
#include <caf/send.hpp>
#include <caf/spawn_options.hpp>

namespace vcs::http {

front_pool::front_pool(caf::actor_system& sys, fair_queue_settings settings,
                       std::shared_ptr<const services> svc, const std::string& database_url)
    : svc_(svc), queue_(std::make_shared<fair_queue>(settings)) {
  for (std::size_t i = 0; i < std::max<std::size_t>(1, settings.workers); ++i)
    workers_.push_back(sys.spawn<caf::detached>(request_worker, svc, database_url, queue_, i));
}

void front_pool::dispatch(http_call call) const {
  const auto received = call.request.received;
  auto admitted = queue_->push(std::move(call));
  using verdict = fair_queue::verdict;
  switch (admitted.outcome) {
  case verdict::run:
    caf::anon_send(workers_[admitted.worker], std::move(*admitted.call));
    return;
  case verdict::queued:
    return;
  case verdict::overloaded:
    svc_->metrics->record("shed", 503, std::chrono::steady_clock::now() - received);
    svc_->metrics->refused(503, "queue_full");
    admitted.call->reply(overloaded_response());
    return;
  case verdict::client_over_limit:
    svc_->metrics->record("shed", 429, std::chrono::steady_clock::now() - received);
    svc_->metrics->refused(429, "key_pending_cap");
    admitted.call->reply(too_many_in_flight_response());
    return;
  }
}

void front_pool::shutdown() {
  for (auto& w : workers_)
    caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

} // namespace vcs::http
