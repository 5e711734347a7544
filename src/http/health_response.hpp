#pragma once

#include "actors/messages.hpp"

namespace vcs::http {

// The answer of GET /healthz for the database's probed state, whether the
// session answers it inline or the route handler does.
inline actors::outbound_response health_response(bool database_up) {
  actors::outbound_response r;
  if (database_up) {
    r.body = R"({"status":"ok"})";
  } else {
    r.status = 503;
    r.body = R"({"status":"unavailable","message":"Database unavailable"})";
  }
  return r;
}

} // namespace vcs::http
