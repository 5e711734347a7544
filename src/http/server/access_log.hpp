#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

namespace spdlog {
class logger;
}

namespace vcs::http {

enum class log_format { text, json };

// One answered or refused request as the access log records it: the route
// pattern, never the raw target (which may carry ids), and never a
// credential.
struct access_entry {
  std::string_view method;
  std::string_view route;
  unsigned status = 0;
  std::optional<std::chrono::microseconds> latency;
  std::string_view request_id;
  // The client's address: the connection's, or the one a trusted proxy
  // names (trusted-proxies).
  std::string_view client;
  std::optional<std::int64_t> tenant_id;
  // Why the connection refused the request (only for refusals).
  std::string_view reason;
};

// How access lines are written, and by which logger (whose formatter adds
// the time and level); set once at start-up, before serving. Until then they
// are text lines on the default logger.
void set_access_log(log_format format, std::shared_ptr<spdlog::logger> logger);

void log_access(const access_entry& entry);

} // namespace vcs::http
