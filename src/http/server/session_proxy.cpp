// A connection's client when trusted proxies stand in front of the service:
// the PROXY protocol header a proxy's connection may start with, the
// listener's connection limits applied to the client it names, and a
// request's X-Forwarded-For.

#include "http/server/proxy_protocol.hpp"
#include "http/server/session.hpp"

#include <spdlog/spdlog.h>

namespace vcs::http {

void session::read_proxy_header() {
  const auto bytes = buffer_.cdata();
  const auto header = parse_proxy_header({static_cast<const char*>(bytes.data()), bytes.size()});
  switch (header.is) {
  case proxy_header::outcome::need_more:
    stream_.expires_after(settings_.options.idle_timeout);
    stream_.async_read_some(buffer_.prepare(proxy_header_max_length - buffer_.size()),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                              if (ec)
                                return self->close();
                              self->buffer_.commit(n);
                              self->read_proxy_header();
                            });
    return;
  case proxy_header::outcome::malformed:
    return reject(400, "proxy_header", "Malformed PROXY protocol header");
  case proxy_header::outcome::absent:
    // The proxy's own requests (health checks), or a proxy that names its
    // clients in X-Forwarded-For: not one client, so no per-client limit.
    per_client_slot_ = false;
    break;
  case proxy_header::outcome::read:
    buffer_.consume(header.length);
    if (header.source) {
      peer_ = *header.source;
      address_ = client_ = peer_.to_string();
    } else {
      per_client_slot_ = false;
    }
    break;
  }
  admit_connection();
}

void session::admit_connection() {
  switch (settings_.limits->admit(address_, per_client_slot_)) {
  case connection_limits::verdict::admitted:
    holds_slot_ = true;
    return read_header();
  case connection_limits::verdict::full:
    spdlog::warn("connection refused: listener at its connection limit");
    return reject(503, "listener_limit", "Too many connections; try again shortly", true);
  case connection_limits::verdict::client_full:
    spdlog::warn("connection refused: client at its connection limit");
    return reject(503, "client_limit", "Too many connections from this client; try again shortly",
                  true);
  }
}

std::string session::request_client() const {
  const auto& trusted = settings_.options.trusted_proxies;
  if (!trusted.trusts(peer_))
    return address_;
  // Several X-Forwarded-For fields read as one list, in order.
  std::string forwarded;
  const auto& fields = parser_->get();
  for (auto [it, end] = fields.equal_range("X-Forwarded-For"); it != end; ++it) {
    if (!forwarded.empty())
      forwarded += ',';
    forwarded.append(it->value().data(), it->value().size());
  }
  return trusted.client_of(peer_, forwarded).to_string();
}

} // namespace vcs::http
