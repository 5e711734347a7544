#include "domain/outbound_address.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include <arpa/inet.h>

namespace vcs::domain {

namespace {

constexpr std::size_t v4_offset = 12; // IPv4 bytes inside a mapped address

ip_address mapped_v4(std::uint32_t value) noexcept {
  ip_address address;
  address.bytes[10] = 0xff;
  address.bytes[11] = 0xff;
  address.bytes[12] = static_cast<std::uint8_t>(value >> 24);
  address.bytes[13] = static_cast<std::uint8_t>(value >> 16);
  address.bytes[14] = static_cast<std::uint8_t>(value >> 8);
  address.bytes[15] = static_cast<std::uint8_t>(value);
  return address;
}

ip_address masked(ip_address address, int prefix) noexcept {
  prefix = std::clamp(prefix, 0, 128);
  for (int i = 0; i < 16; ++i) {
    const int keep = std::clamp(prefix - i * 8, 0, 8);
    address.bytes[i] &= static_cast<std::uint8_t>(0xff00u >> keep);
  }
  return address;
}

bool is_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}

bool is_hex_digit(char c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int hex_value(char c) noexcept {
  if (is_digit(c))
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return c - 'A' + 10;
}

char ascii_lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
}

bool starts_with_hex_prefix(std::string_view text) noexcept {
  return text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
}

// Strict: inet_pton takes a C string, so an embedded NUL would cut the text.
template <int Family, std::size_t Size>
bool pton(std::string_view text, unsigned char (&out)[Size]) {
  if (text.empty() || text.find('\0') != std::string_view::npos)
    return false;
  const std::string copy(text);
  return inet_pton(Family, copy.c_str(), out) == 1;
}

std::optional<ip_address> parse_v6(std::string_view text) {
  unsigned char raw[16];
  if (text.find('%') != std::string_view::npos || !pton<AF_INET6>(text, raw))
    return std::nullopt;
  return ip_address_from_bytes(raw, 16);
}

std::optional<ip_address> parse_v4_strict(std::string_view text) {
  unsigned char raw[4];
  if (!pton<AF_INET>(text, raw))
    return std::nullopt;
  return ip_address_from_bytes(raw, 4);
}

// One inet_aton part: 0x-hex, octal with a leading 0, or decimal. A bare
// "0x" is refused, as glibc does (WHATWG reads it as 0).
std::optional<std::uint32_t> parse_v4_part(std::string_view part) noexcept {
  if (part.empty())
    return std::nullopt;
  unsigned base = 10;
  if (starts_with_hex_prefix(part)) {
    base = 16;
    part.remove_prefix(2);
    if (part.empty())
      return std::nullopt;
  } else if (part.size() > 1 && part[0] == '0') {
    base = 8;
    part.remove_prefix(1);
  }
  std::uint64_t value = 0;
  for (const char c : part) {
    unsigned digit = 0;
    if (base == 16 && is_hex_digit(c))
      digit = static_cast<unsigned>(hex_value(c));
    else if (is_digit(c) && static_cast<unsigned>(c - '0') < base)
      digit = static_cast<unsigned>(c - '0');
    else
      return std::nullopt;
    value = value * base + digit;
    if (value > 0xffffffffu)
      return std::nullopt;
  }
  return static_cast<std::uint32_t>(value);
}

std::optional<ip_address> parse_v4_any(std::string_view text) noexcept {
  if (!text.empty() && text.back() == '.')
    text.remove_suffix(1);
  if (text.empty())
    return std::nullopt;
  std::array<std::uint32_t, 4> parts{};
  std::size_t count = 0;
  for (;;) {
    const auto dot = text.find('.');
    if (count == parts.size())
      return std::nullopt;
    const auto part = parse_v4_part(text.substr(0, dot));
    if (!part)
      return std::nullopt;
    parts[count++] = *part;
    if (dot == std::string_view::npos)
      break;
    text.remove_prefix(dot + 1);
  }
  // Leading parts are one byte each; the last fills the bytes left.
  std::uint32_t value = 0;
  for (std::size_t i = 0; i + 1 < count; ++i) {
    if (parts[i] > 0xff)
      return std::nullopt;
    value |= parts[i] << (24 - 8 * i);
  }
  const std::uint32_t last_max = 0xffffffffu >> (8 * (count - 1));
  if (parts[count - 1] > last_max)
    return std::nullopt;
  return mapped_v4(value | parts[count - 1]);
}

struct special_range {
  ip_network network;
  std::string_view kind;
};

// First match wins, so ::/128 and ::1/128 come before ::/96.
const std::vector<special_range>& special_ranges() {
  static const std::vector<special_range> ranges = [] {
    const std::pair<std::string_view, std::string_view> table[] = {
        {"0.0.0.0/8", "unspecified"},
        {"127.0.0.0/8", "loopback"},
        {"10.0.0.0/8", "private"},
        {"172.16.0.0/12", "private"},
        {"192.168.0.0/16", "private"},
        {"169.254.0.0/16", "link-local"},
        {"100.64.0.0/10", "shared address space (CGNAT)"},
        {"224.0.0.0/4", "multicast"},
        {"255.255.255.255/32", "broadcast"},
        {"240.0.0.0/4", "reserved"},
        {"192.0.0.0/24", "reserved"},
        {"192.0.2.0/24", "reserved"},
        {"192.88.99.0/24", "reserved"},
        {"198.18.0.0/15", "reserved"},
        {"198.51.100.0/24", "reserved"},
        {"203.0.113.0/24", "reserved"},
        {"::/128", "unspecified"},
        {"::1/128", "loopback"},
        {"::/96", "reserved"}, // IPv4-compatible (deprecated)
        {"fc00::/7", "private"},
        {"fe80::/10", "link-local"},
        {"fec0::/10", "reserved"}, // site-local (deprecated)
        {"ff00::/8", "multicast"},
        {"64:ff9b::/96", "reserved"},   // NAT64
        {"64:ff9b:1::/48", "reserved"}, // local NAT64
        {"100::/64", "reserved"},       // discard
        {"2001::/23", "reserved"},      // IETF protocols, includes Teredo 2001::/32
        {"2001:db8::/32", "reserved"},  // documentation
        {"2002::/16", "reserved"},      // 6to4
        {"3fff::/20", "reserved"},      // documentation (RFC 9637)
    };
    std::vector<special_range> result;
    for (const auto& [text, kind] : table)
      result.push_back({*parse_network(text), kind});
    return result;
  }();
  return ranges;
}

bool is_localhost_name(std::string_view host) noexcept {
  while (!host.empty() && host.back() == '.')
    host.remove_suffix(1);
  constexpr std::string_view name = "localhost";
  if (host.size() < name.size())
    return false;
  const auto tail = host.substr(host.size() - name.size());
  if (!std::equal(tail.begin(), tail.end(), name.begin(),
                  [](char a, char b) { return ascii_lower(a) == b; }))
    return false;
  return host.size() == name.size() || host[host.size() - name.size() - 1] == '.';
}

std::string_view article(std::string_view word) noexcept {
  return std::string_view("aeiouAEIOU").find(word.front()) == std::string_view::npos ? "a" : "an";
}

std::string_view trim(std::string_view text) noexcept {
  constexpr std::string_view blanks = " \t\r\n";
  const auto first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos)
    return {};
  return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

} // namespace

bool ip_address::is_v4() const noexcept {
  static constexpr std::uint8_t prefix[v4_offset] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  return std::equal(prefix, prefix + v4_offset, bytes.begin());
}

std::string ip_address::to_string() const {
  char text[INET6_ADDRSTRLEN] = {};
  if (is_v4())
    inet_ntop(AF_INET, bytes.data() + v4_offset, text, sizeof text);
  else
    inet_ntop(AF_INET6, bytes.data(), text, sizeof text);
  return text;
}

ip_address ip_address_from_bytes(const unsigned char* data, std::size_t size) {
  ip_address address;
  if (size == 4) {
    address.bytes[10] = 0xff;
    address.bytes[11] = 0xff;
    std::memcpy(address.bytes.data() + v4_offset, data, 4);
  } else if (size == 16) {
    std::memcpy(address.bytes.data(), data, 16);
  }
  return address;
}

bool ip_network::contains(const ip_address& address) const noexcept {
  return masked(address, prefix) == masked(base, prefix);
}

std::optional<ip_network> parse_network(std::string_view text) {
  const auto slash = text.find('/');
  const auto address_text = text.substr(0, slash);
  const bool v6 = address_text.find(':') != std::string_view::npos;
  const auto address = v6 ? parse_v6(address_text) : parse_v4_strict(address_text);
  if (!address)
    return std::nullopt;
  const int max_prefix = v6 ? 128 : 32;
  int prefix = max_prefix;
  if (slash != std::string_view::npos) {
    const auto digits = text.substr(slash + 1);
    if (digits.empty() || digits.size() > 3 || !std::all_of(digits.begin(), digits.end(), is_digit))
      return std::nullopt;
    prefix = 0;
    for (const char c : digits)
      prefix = prefix * 10 + (c - '0');
    if (prefix > max_prefix)
      return std::nullopt;
  }
  if (!v6)
    prefix += 96;
  return ip_network{masked(*address, prefix), prefix};
}

std::optional<ip_address> parse_ip_literal(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    return parse_v6(host.substr(1, host.size() - 2));
  if (host.find(':') != std::string_view::npos)
    return parse_v6(host);
  return parse_v4_any(host);
}

bool looks_like_ip_literal(std::string_view host) noexcept {
  if (host.find_first_of(":[]") != std::string_view::npos)
    return true;
  while (!host.empty() && host.back() == '.')
    host.remove_suffix(1);
  const auto dot = host.rfind('.');
  const auto last = dot == std::string_view::npos ? host : host.substr(dot + 1);
  if (last.empty())
    return false;
  if (starts_with_hex_prefix(last))
    return std::all_of(last.begin() + 2, last.end(), is_hex_digit);
  return std::all_of(last.begin(), last.end(), is_digit);
}

std::optional<std::string_view> special_address_kind(const ip_address& address) noexcept {
  for (const auto& range : special_ranges())
    if (range.network.contains(address))
      return range.kind;
  // Only 2000::/3 is allocated for global unicast; the rest is unassigned.
  if (!address.is_v4() && (address.bytes[0] & 0xe0) != 0x20)
    return "reserved";
  return std::nullopt;
}

std::optional<std::vector<ip_network>> parse_networks(std::string_view comma_separated) {
  std::vector<ip_network> networks;
  if (trim(comma_separated).empty())
    return networks;
  for (;;) {
    const auto comma = comma_separated.find(',');
    const auto network = parse_network(trim(comma_separated.substr(0, comma)));
    if (!network)
      return std::nullopt;
    networks.push_back(*network);
    if (comma == std::string_view::npos)
      return networks;
    comma_separated.remove_prefix(comma + 1);
  }
}

std::string format_networks(const std::vector<ip_network>& networks) {
  std::string out;
  for (const auto& n : networks) {
    if (!out.empty())
      out += ',';
    const bool v4 = n.base.is_v4() && n.prefix >= 96;
    out += n.base.to_string() + "/" + std::to_string(v4 ? n.prefix - 96 : n.prefix);
  }
  return out;
}

outbound_policy::outbound_policy(std::vector<ip_network> allowed) : allowed_(std::move(allowed)) {}

std::optional<std::string> outbound_policy::refuse(const ip_address& address) const {
  for (const auto& network : allowed_)
    if (network.contains(address))
      return std::nullopt;
  const auto kind = special_address_kind(address);
  if (!kind)
    return std::nullopt;
  return std::string(article(*kind)) + " " + std::string(*kind) + " address";
}

std::optional<std::string> outbound_policy::refuse_host(std::string_view host) const {
  if (host.find_first_not_of('.') == std::string_view::npos) // "", ".", the root
    return "empty host";
  // Never echo such a host: it could carry anything into logs.
  if (std::any_of(host.begin(), host.end(),
                  [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; }))
    return "host contains spaces or control characters";
  if (const auto address = parse_ip_literal(host)) {
    if (auto why = refuse(*address))
      return "the host is " + *why;
    return std::nullopt;
  }
  if (looks_like_ip_literal(host))
    return "the host is not a valid address";
  if (is_localhost_name(host) && refuse(mapped_v4(0x7f000001)))
    return "the host is a loopback host name";
  return std::nullopt;
}

std::optional<outbound_policy> outbound_policy::parse(std::string_view comma_separated) {
  auto allowed = parse_networks(comma_separated);
  if (!allowed)
    return std::nullopt;
  return outbound_policy(std::move(*allowed));
}

} // namespace vcs::domain
