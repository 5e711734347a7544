#pragma once

#include "domain/outbound_address.hpp"

#include <string_view>
#include <vector>

namespace vcs::domain {

// The proxies an operator puts in front of the service (trusted-proxies):
// only a connection from one of them may say, by a PROXY protocol header or
// X-Forwarded-For, which client it carries. Anyone else's say is ignored, so
// a client cannot pick the address its limits and sign-in throttle count.
class trusted_proxies {
public:
  explicit trusted_proxies(std::vector<ip_network> networks = {});

  bool trusts(const ip_address& peer) const noexcept;

  // The client a request from `peer` comes from: `peer` when it is not
  // trusted; otherwise, walking X-Forwarded-For from its end (the entry the
  // nearest proxy added), the first address no trusted proxy holds. An
  // entry that is not an address stops the walk at the proxy that added it;
  // when every entry is trusted, the first one.
  ip_address client_of(const ip_address& peer, std::string_view forwarded_for) const;

  const std::vector<ip_network>& networks() const noexcept { return networks_; }

private:
  std::vector<ip_network> networks_;
};

} // namespace vcs::domain
