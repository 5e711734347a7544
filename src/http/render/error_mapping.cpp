#include "http/render/error_mapping.hpp"

#include "http/inputs/json.hpp"

namespace vcs::http {

unsigned status_of(domain::errc code) noexcept {
  using domain::errc;
  switch (code) {
  case errc::bad_request:
    return 400;
  case errc::unauthorized:
    return 401;
  case errc::forbidden:
    return 403;
  case errc::not_found:
    return 404;
  case errc::method_not_allowed:
    return 405;
  case errc::conflict:
    return 409;
  case errc::payload_too_large:
    return 413;
  case errc::unprocessable:
    return 422;
  case errc::plan_limit:
    // A plan limit forbids the action until the tenant upgrades
    // (docs/decisions/api-basics.md#plans).
    return 403;
  case errc::unavailable:
  case errc::outcome_unknown:
    return 503;
  case errc::internal:
    return 500;
  case errc::too_many_requests:
    return 429;
  case errc::upstream_failed:
    return 502;
  }
  return 500;
}

std::optional<std::string_view> refusal_cause(domain::errc code) noexcept {
  using domain::errc;
  switch (code) {
  case errc::too_many_requests:
    return "tenant_rate_limit";
  case errc::unavailable:
    return "unavailable";
  case errc::outcome_unknown:
    return "deadline";
  default:
    return std::nullopt;
  }
}

outbound_response overloaded_response() {
  auto r = error_response({domain::errc::unavailable, "Service overloaded; try again shortly"});
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

outbound_response too_many_in_flight_response() {
  auto r = error_response({domain::errc::too_many_requests,
                           "Too many requests in flight for this API key; try again shortly"});
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

outbound_response error_response(const domain::error& e, const error_envelope& envelope) {
  outbound_response r;
  r.status = status_of(e.code);
  r.body = error_json(e, envelope);
  return r;
}

} // namespace vcs::http
