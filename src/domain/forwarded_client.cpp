#include "domain/forwarded_client.hpp"

#include <algorithm>

namespace vcs::domain {

namespace {

// One X-Forwarded-For entry: an address, IPv6 with or without brackets.
std::optional<ip_address> entry_address(std::string_view entry) {
  while (!entry.empty() && (entry.front() == ' ' || entry.front() == '\t'))
    entry.remove_prefix(1);
  while (!entry.empty() && (entry.back() == ' ' || entry.back() == '\t'))
    entry.remove_suffix(1);
  if (entry.size() >= 2 && entry.front() == '[' && entry.back() == ']')
    entry = entry.substr(1, entry.size() - 2);
  if (entry.find('/') != std::string_view::npos)
    return std::nullopt;
  const auto network = parse_network(entry);
  if (!network)
    return std::nullopt;
  return network->base;
}

} // namespace

trusted_proxies::trusted_proxies(std::vector<ip_network> networks)
    : networks_(std::move(networks)) {}

bool trusted_proxies::trusts(const ip_address& peer) const noexcept {
  return std::any_of(networks_.begin(), networks_.end(),
                     [&](const ip_network& n) { return n.contains(peer); });
}

ip_address trusted_proxies::client_of(const ip_address& peer,
                                      std::string_view forwarded_for) const {
  auto client = peer;
  while (trusts(client) && !forwarded_for.empty()) {
    const auto comma = forwarded_for.rfind(',');
    const auto entry =
        comma == std::string_view::npos ? forwarded_for : forwarded_for.substr(comma + 1);
    const auto address = entry_address(entry);
    if (!address)
      break;
    client = *address;
    forwarded_for =
        comma == std::string_view::npos ? std::string_view{} : forwarded_for.substr(0, comma);
  }
  return client;
}

} // namespace vcs::domain
