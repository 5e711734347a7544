#pragma once

#include "domain/error.hpp"
#include "http/http_call.hpp"

namespace vcs::http {

// The one place where a domain error becomes an HTTP status.
unsigned status_of(domain::errc code) noexcept;

// A complete JSON error response in the spec's envelope.
outbound_response error_response(const domain::error& e);

// 503 with Retry-After: the service sheds load instead of queueing it.
outbound_response overloaded_response();
// 429: one client already has its most requests waiting or running.
outbound_response too_many_in_flight_response();

} // namespace vcs::http
