#pragma once

#include "http/server/http_call.hpp"

#include <optional>
#include <string>

namespace vcs::http {

// The answer of GET /healthz for the database's probed state, whether the
// session answers it inline or the route handler does.
inline outbound_response health_response(bool database_up) {
  outbound_response r;
  if (database_up) {
    r.body = R"({"status":"ok"})";
  } else {
    r.status = 503;
    r.body = R"({"status":"unavailable","message":"Database unavailable"})";
  }
  return r;
}

// GET /livez: the process and its I/O threads answer; nothing else is asked.
inline outbound_response liveness_response() {
  outbound_response r;
  r.body = R"({"status":"alive"})";
  return r;
}

// GET /readyz: 200 while the node should get traffic, 503 with the reason.
inline outbound_response readiness_response(const std::optional<std::string>& unready) {
  outbound_response r;
  if (!unready) {
    r.body = R"({"status":"ready"})";
    return r;
  }
  r.status = 503;
  r.body = R"({"status":"unready","message":")" + *unready + "\"}";
  return r;
}

} // namespace vcs::http
