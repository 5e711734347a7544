#include "http/inputs/json.hpp"
#include "http/render/error_mapping.hpp"
#include "http/server/access_log.hpp"
#include "http/work/handler.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace vcs::http {

void exchange::respond(unsigned status, std::string body) {
  outbound_response r;
  r.status = status;
  r.body = std::move(body);
  respond(std::move(r));
}

void exchange::respond(outbound_response response) {
  deliver(std::move(response), true);
}

void exchange::fail(const domain::error& e) {
  if (e.code == domain::errc::internal)
    spdlog::error("request_id={} route=\"{}\" failed: {}", request.request_id, route, e.message);
  if (auto cause = refusal_cause(e.code); cause && !answered_)
    svc.metrics->refused(status_of(e.code), *cause);
  deliver(error_response(e, envelope), e.code != domain::errc::outcome_unknown);
}

void exchange::deliver(outbound_response response, bool outcome_known) {
  if (settled_)
    return;
  if (outcome_known) {
    settled_ = true;
    if (before_reply)
      before_reply(response);
  }
  if (answered_)
    return;
  answered_ = true;
  for (auto& header : response_headers)
    response.headers.push_back(std::move(header));
  // API answers may carry a key, a set-up link, a CSRF token or a tenant's
  // data: no cache keeps one unless its route chose otherwise (the pages).
  if (std::none_of(response.headers.begin(), response.headers.end(),
                   [](const auto& h) { return h.first == "Cache-Control"; }))
    response.headers.emplace_back("Cache-Control", "no-store");
  auto latency = std::chrono::steady_clock::now() - request.received;
  svc.metrics->record(route, response.status, latency);
  log_access(
      {.method = request.method,
       .route = route,
       .status = response.status,
       .latency = std::chrono::duration_cast<std::chrono::microseconds>(latency),
       .request_id = request.request_id,
       .client = request.address,
       .tenant_id = principal ? std::optional<std::int64_t>{principal->tenant_id} : std::nullopt,
       .reason = {}});
  reply_(std::move(response));
}

} // namespace vcs::http
