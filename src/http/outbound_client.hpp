#pragma once

// Outbound HTTP/1.1 POSTs (webhooks, provider APIs) on an event loop of
// their own: http:// and https:// (certificate and host name verified
// against the system's trust store).

#include "actors/outbound_http.hpp"

#include <memory>

namespace vcs::http {

class outbound_client {
public:
  explicit outbound_client(std::size_t threads = 1);
  ~outbound_client();
  outbound_client(const outbound_client&) = delete;
  outbound_client& operator=(const outbound_client&) = delete;

  // actors::http_poster's shape; callable from any thread.
  void post(actors::outbound_post request, std::function<void(actors::outbound_result)> done);

  // An http_poster that forwards to this client (which must outlive it).
  actors::http_poster poster();

  // Cancels nothing in flight; stops the loop once it is idle or at exit.
  void stop();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace vcs::http
