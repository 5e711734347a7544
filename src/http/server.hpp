#pragma once

#include "http/http_call.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace vcs::http {

class metrics;

struct server_options {
  std::string public_listen = "127.0.0.1:8080";
  std::string operator_listen = "127.0.0.1:8081";
  std::size_t io_threads = 2;
  std::size_t header_limit = 16 * 1024;
  std::size_t body_limit = 1024 * 1024;
  // Bulk lead routes carry large arrays.
  std::size_t bulk_body_limit = 64 * 1024 * 1024;
  // Waiting for the next request on a keep-alive connection, header included.
  std::chrono::milliseconds idle_timeout{30'000};
  // Reading a request body, and writing a response.
  std::chrono::milliseconds read_timeout{30'000};
  // Open connections per listener, and per client address on the public
  // listener (0: no limit); more are answered 503 and closed.
  std::size_t max_connections = 10'000;
  std::size_t max_connections_per_client = 1'000;
  // How long a graceful shutdown waits for in-flight requests.
  std::chrono::milliseconds shutdown_timeout{30'000};
  // When set, GET /healthz is answered on the I/O thread from the
  // database's last probed state, without a hand-off to the actors.
  std::function<bool()> database_up;
  // When set, GET /readyz is answered on the I/O thread too: nullopt when
  // ready, else why not (and "draining" once a shutdown began). GET /livez
  // is always answered there.
  std::function<std::optional<std::string>()> unready;
  // Counts those inline answers.
  std::shared_ptr<metrics> inline_metrics;
};

// Hands a parsed request to the actors; the call's reply comes back on any
// thread.
using dispatch_fn = std::function<void(http_call)>;

// The public and operator HTTP/1.1 listeners on one event loop run by
// `io_threads` threads.
class server {
public:
  server(server_options options, dispatch_fn dispatch);
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  // Binds both listeners (throws when an address is unusable) and starts
  // serving on the I/O threads.
  void start();

  // Blocks until SIGINT or SIGTERM, then drains: stops accepting, closes idle
  // connections, lets in-flight requests finish (bounded by
  // shutdown_timeout), and returns.
  void wait_for_signal_and_drain();

  unsigned short public_port() const;
  unsigned short operator_port() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace vcs::http
