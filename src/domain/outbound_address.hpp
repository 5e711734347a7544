#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Rules that keep outbound requests (webhooks, provider APIs) away from
// internal addresses (server-side request forgery guard). Checking a URL's
// host here is only the first line: the caller must also check every address
// a name resolves to, and connect only to an address that passed.

namespace vcs::domain {

// IPv4 is stored IPv4-mapped (::ffff:a.b.c.d), so one address has one form
// whichever way it was written.
struct ip_address {
  std::array<std::uint8_t, 16> bytes{};

  bool is_v4() const noexcept; // inside ::ffff:0:0/96
  // Dotted quad for IPv4, RFC 5952 compressed form for IPv6.
  std::string to_string() const;

  bool operator==(const ip_address&) const = default;
};

// 4 bytes (IPv4, network order) or 16 bytes (IPv6); any other size gives
// :: (unspecified), which every policy refuses unless explicitly allowed.
ip_address ip_address_from_bytes(const unsigned char* data, std::size_t size);

// prefix counts IPv6 bits: IPv4 a.b.c.d/n is ::ffff:a.b.c.d/(96+n).
struct ip_network {
  ip_address base;
  int prefix = 0;

  bool contains(const ip_address& address) const noexcept;
  bool operator==(const ip_network&) const = default;
};

// "10.0.0.0/8", "fd00::/8", or one address ("127.0.0.1" = /32, "::1" =
// /128). Addresses must be strict (dotted quad, inet_pton IPv6); host bits
// beyond the prefix are cleared. nullopt on anything else.
std::optional<ip_network> parse_network(std::string_view text);

// Comma-separated networks as for parse_network, spaces around entries
// ignored: "127.0.0.0/8, ::1/128". Empty (or blank) text is no network;
// nullopt when any entry is bad, including an empty one ("a,,b").
std::optional<std::vector<ip_network>> parse_networks(std::string_view comma_separated);

// The networks as parse_networks reads them: "10.0.0.0/8,::1/128".
std::string format_networks(const std::vector<ip_network>& networks);

// A URL host read as an IP address in every spelling a resolver accepts:
// IPv6 (with or without brackets) and inet_aton's IPv4 forms (1 to 4 parts,
// each decimal, octal with a leading 0, or hex with 0x; the last part fills
// the remaining bytes; one trailing dot allowed). nullopt when host is not a
// valid literal: either a name, or a malformed literal (see
// looks_like_ip_literal). IPv6 zone ids ("fe80::1%eth0") are not accepted,
// so such hosts count as malformed literals: an outbound request never needs
// to pick an interface.
std::optional<ip_address> parse_ip_literal(std::string_view host);

// True when a resolver would read host as an address rather than a name: it
// contains ':', '[' or ']', or its last label (ignoring trailing dots) is a
// decimal number or 0x-hex (the WHATWG "ends in a number" rule). A host for
// which this holds but parse_ip_literal fails is malformed and refused.
bool looks_like_ip_literal(std::string_view host) noexcept;

// nullopt for a public unicast address, else a short reason: "unspecified",
// "loopback", "private", "link-local", "shared address space (CGNAT)",
// "multicast", "broadcast" or "reserved". IPv4-mapped addresses are judged
// by their IPv4 address. NAT64, 6to4, Teredo and all IPv6 space outside
// 2000::/3 are "reserved": they may lead anywhere, including inside.
std::optional<std::string_view> special_address_kind(const ip_address& address) noexcept;

class outbound_policy {
public:
  // allowed: networks that may be reached even though they are special
  // (e.g. a webhook receiver on 127.0.0.1 in development).
  explicit outbound_policy(std::vector<ip_network> allowed = {});

  // nullopt when address may be reached, else the rule it breaks, e.g. "a
  // loopback address". No refusal names an address or a host: a tenant must
  // not map internal names through them.
  std::optional<std::string> refuse(const ip_address& address) const;

  // For an IP literal in any spelling, refuse(address) as "the host is a
  // loopback address"; a malformed literal,
  // an empty host or one with spaces or control characters is refused.
  // "localhost" and "*.localhost" (RFC 6761; any case, trailing dots) count
  // as 127.0.0.1. Any other name gives nullopt: the caller resolves it and
  // calls refuse() on each address.
  std::optional<std::string> refuse_host(std::string_view host) const;

  // parse_networks' text; empty text allows nothing.
  static std::optional<outbound_policy> parse(std::string_view comma_separated);

  const std::vector<ip_network>& allowed() const noexcept { return allowed_; }

private:
  std::vector<ip_network> allowed_;
};

} // namespace vcs::domain
