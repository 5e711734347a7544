#pragma once

// Outbound HTTP/1.1 POSTs (webhooks, provider APIs) and GETs (provider
// reads) on an event loop of their own: http:// and https:// (certificate
// and host name verified against the system's trust store). Every request
// is checked against the outbound policy: the host as written, then every address it resolves to,
// and only checked addresses are connected to (no second resolution a DNS
// change could slip through). Redirects are not followed.

#include "actors/outbound_http.hpp"
#include "domain/outbound_address.hpp"
#include "outbound/name_resolver.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace vcs::outbound {

class outbound_client {
public:
  // Names are resolved on a lookup pool of `lookups` (outbound::name_resolver).
  explicit outbound_client(domain::outbound_policy policy, std::size_t threads = 1,
                           name_resolver_settings lookups = {});
  ~outbound_client();
  outbound_client(const outbound_client&) = delete;
  outbound_client& operator=(const outbound_client&) = delete;

  // actors::http_poster's shape; callable from any thread.
  void post(actors::outbound_post request, std::function<void(actors::outbound_result)> done);

  // Why `url` may not be requested: its host, or any address it resolves to
  // within `limit` (on `tenant_id`'s share of the lookups), is internal and
  // not allowed. A name that does not resolve in time passes here (each
  // delivery checks again). Blocks the caller up to `limit`.
  std::optional<std::string> refusal(std::int64_t tenant_id, const std::string& url,
                                     std::chrono::milliseconds limit) const;

  // An http_poster that forwards to this client (which must outlive it).
  actors::http_poster poster();

  // Cancels nothing in flight; stops the loop once it is idle or at exit.
  void stop();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace vcs::outbound
