#include "domain/url.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>

#include <arpa/inet.h>
#include <netinet/in.h>

namespace vcs::domain {
namespace {

// RFC 3986 URLs are printable ASCII (anything else is percent-encoded), which
// also excludes whitespace and control characters.
bool is_url_char(char c) noexcept {
  return c > 0x20 && c < 0x7F;
}

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) noexcept {
  return text.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), text.begin(), [](char p, char t) {
           return p == (t >= 'A' && t <= 'Z' ? static_cast<char>(t - 'A' + 'a') : t);
         });
}

// What follows "http://" or "https://"; nullopt for any other scheme.
std::optional<std::string_view> after_http_scheme(std::string_view url) noexcept {
  for (const std::string_view scheme : {"http://", "https://"})
    if (starts_with_ignoring_case(url, scheme))
      return url.substr(scheme.size());
  return std::nullopt;
}

bool is_dns_label(std::string_view label) noexcept {
  const auto is_label_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
  };
  return !label.empty() && label.size() <= 63 && label.front() != '-' && label.back() != '-' &&
         std::all_of(label.begin(), label.end(), is_label_char);
}

// Dot-separated DNS labels; an empty label (so also a trailing root dot) is
// refused.
bool is_host_name(std::string_view host) noexcept {
  if (host.empty() || host.size() > 253)
    return false;
  for (std::size_t start = 0;;) {
    const std::size_t dot = host.find('.', start);
    if (!is_dns_label(host.substr(start, dot - start)))
      return false;
    if (dot == std::string_view::npos)
      return true;
    start = dot + 1;
  }
}

// "[...]" around an address inet_pton accepts (no zone ids).
bool is_ipv6_literal(std::string_view host) noexcept {
  if (host.size() < 2 || host.front() != '[' || host.back() != ']')
    return false;
  const std::string_view inner = host.substr(1, host.size() - 2);
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (inner.size() >= text.size())
    return false;
  std::copy(inner.begin(), inner.end(), text.begin());
  in6_addr address{};
  return inet_pton(AF_INET6, text.data(), &address) == 1;
}

// 1 to 65535 in plain digits (no sign, no spaces).
bool is_port(std::string_view text) noexcept {
  if (text.empty() || text.size() > 5 || text.front() == '+' || text.front() == '-')
    return false;
  int port = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), port);
  return ec == std::errc{} && end == text.data() + text.size() && port >= 1 && port <= 65535;
}

// "host[:port]" only: userinfo ("user@") is refused, as it is the usual way
// to disguise which host a URL really points at.
bool is_authority(std::string_view authority) noexcept {
  // An IPv6 literal contains ':' itself; its port separator follows the ']'.
  const std::size_t host_end = authority.starts_with('[')
                                   ? std::min(authority.find(']'), authority.size() - 1) + 1
                                   : std::min(authority.find(':'), authority.size());
  const std::string_view host = authority.substr(0, host_end);
  const std::string_view port = authority.substr(host_end);
  const bool host_ok = host.starts_with('[') ? is_ipv6_literal(host) : is_host_name(host);
  return host_ok && (port.empty() || (port.front() == ':' && is_port(port.substr(1))));
}

} // namespace

bool is_http_url(std::string_view text) noexcept {
  if (!std::all_of(text.begin(), text.end(), is_url_char))
    return false;
  const auto rest = after_http_scheme(text);
  if (!rest)
    return false;
  // The authority runs to the first '/', '?' or '#'; path, query and
  // fragment need nothing beyond the character check above.
  return is_authority(rest->substr(0, rest->find_first_of("/?#")));
}

} // namespace vcs::domain
