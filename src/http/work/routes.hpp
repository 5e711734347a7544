#pragma once

#include "http/server/routed_request.hpp"
#include "http/server/server_options.hpp"
#include "http/work/router.hpp"

#include <cstddef>
#include <string_view>

namespace vcs::http {

// The routes of both listeners, shared by the sessions (each request's body
// limit) and the request workers.
struct route_tables {
  router public_api;
  router operator_api;
};

// Every route of the public listener.
router public_routes();

// Every route of the operator listener.
router operator_routes();

// Decodes `raw_target` and finds what the listener's table answers for
// `method` on its path: the sessions route each request when its header
// arrives, and the request workers use that answer.
routed_request route_request(const router& routes, std::string_view method,
                             std::string_view raw_target);

// The largest body a request may send: its route's (handler::body); a
// request no route takes gets the regular limit.
std::size_t request_body_limit(const router::route* route, const server_options& o);

// The most items its route's list body of `content_type` may hold
// (handler::body_items), or 0.
std::size_t request_body_items(const router::route* route, std::string_view content_type);

} // namespace vcs::http
