#pragma once

#include "http/server/http_call.hpp"
#include "http/server/server_options.hpp"
#include "http/work/routes.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace vcs::http {

class metrics;

// Hands a parsed request to the actors; the call's reply comes back on any
// thread.
using dispatch_fn = std::function<void(http_call)>;

// The public and operator HTTP/1.1 listeners on one event loop run by
// `io_threads` threads.
class server {
public:
  server(server_options options, std::shared_ptr<const route_tables> routes, dispatch_fn dispatch);
  ~server();
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  // Binds both listeners (throws when an address is unusable) and starts
  // serving on the I/O threads.
  void start();

  // Blocks until SIGINT or SIGTERM and returns the signal.
  int wait_for_signal();

  // Starts a drain's first phase: /readyz answers 503 "draining" and every
  // answer closes its connection (clients reconnect, through a load
  // balancer to other nodes), while both listeners keep accepting.
  void announce_draining();

  // Stops accepting, closes idle connections, lets in-flight requests finish
  // (bounded by shutdown_timeout), and returns.
  void drain();

  unsigned short public_port() const;
  unsigned short operator_port() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace vcs::http
