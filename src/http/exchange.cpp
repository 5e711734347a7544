#include "http/error_mapping.hpp"
#include "http/handler.hpp"
#include "http/json.hpp"

#include <spdlog/spdlog.h>

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
  deliver(error_response(e), e.code != domain::errc::outcome_unknown);
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
  auto latency = std::chrono::steady_clock::now() - request.received;
  svc.metrics->record(route, response.status, latency);
  // The access log names the route pattern, never the raw target (which may
  // carry ids) and never a credential.
  spdlog::info("access method={} route=\"{}\" status={} latency_us={} request_id={} tenant={}",
               request.method, route, response.status,
               std::chrono::duration_cast<std::chrono::microseconds>(latency).count(),
               request.request_id, principal ? std::to_string(principal->tenant_id) : "-");
  reply_(std::move(response));
}

} // namespace vcs::http
