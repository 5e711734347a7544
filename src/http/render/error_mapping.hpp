#pragma once

#include "domain/error.hpp"
#include "http/render/error_envelope.hpp"
#include "http/server/http_call.hpp"

#include <optional>
#include <string_view>

namespace vcs::http {

// The one place where a domain error becomes an HTTP status.
unsigned status_of(domain::errc code) noexcept;

// The refusal cause /metrics counts an error's 429 or 503 under
// (vcs_http_refused_total); nullopt for other errors.
std::optional<std::string_view> refusal_cause(domain::errc code) noexcept;

// A complete JSON error response in the spec's envelope, as the route's
// `envelope` shapes it.
outbound_response error_response(const domain::error& e, const error_envelope& envelope = {});

// 503 with Retry-After: the service sheds load instead of queueing it.
outbound_response overloaded_response();
// 429: one client already has its most requests waiting or running.
outbound_response too_many_in_flight_response();

} // namespace vcs::http
