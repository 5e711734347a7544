#include "domain/url.hpp"

#include <algorithm>
#include <array>
#include <charconv>

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

bool is_alnum(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool is_reg_name_char(char c) noexcept {
  return is_alnum(c) || c == '-' || c == '.' || c == '_';
}

bool is_ipv6_char(char c) noexcept {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' ||
         c == '.';
}

bool is_dns_label(std::string_view label) noexcept {
  const auto is_label_char = [](char c) { return is_alnum(c) || c == '-'; };
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

bool is_ipv6_address(std::string_view text) noexcept {
  std::array<char, INET6_ADDRSTRLEN> buffer{};
  if (text.size() >= buffer.size())
    return false;
  std::copy(text.begin(), text.end(), buffer.begin());
  in6_addr address{};
  return inet_pton(AF_INET6, buffer.data(), &address) == 1;
}

// 1 to 65535 in plain digits (no sign, no spaces).
std::optional<std::uint16_t> read_port(std::string_view text) noexcept {
  if (text.empty() || text.size() > 5 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  unsigned port = 0;
  std::from_chars(text.data(), text.data() + text.size(), port);
  if (port < 1 || port > 65535)
    return std::nullopt;
  return static_cast<std::uint16_t>(port);
}

} // namespace

std::optional<http_url> parse_http_url(std::string_view text) {
  if (!std::all_of(text.begin(), text.end(), is_url_char))
    return std::nullopt;
  http_url out;
  if (starts_with_ignoring_case(text, "https://")) {
    out.tls = true;
    text.remove_prefix(8);
  } else if (starts_with_ignoring_case(text, "http://")) {
    text.remove_prefix(7);
  } else {
    return std::nullopt;
  }
  // The authority runs to the first '/', '?' or '#'.
  const auto authority_end = text.find_first_of("/?#");
  const auto authority = text.substr(0, authority_end);
  if (authority.find_first_of("@\\") != std::string_view::npos)
    return std::nullopt;

  std::string_view host;
  std::string_view rest; // ":port" or empty
  if (authority.starts_with('[')) {
    const auto close = authority.find(']');
    if (close == std::string_view::npos)
      return std::nullopt;
    host = authority.substr(1, close - 1);
    rest = authority.substr(close + 1);
    if (host.find(':') == std::string_view::npos ||
        !std::all_of(host.begin(), host.end(), is_ipv6_char))
      return std::nullopt;
  } else {
    const auto colon = authority.find(':');
    host = authority.substr(0, colon);
    rest = colon == std::string_view::npos ? std::string_view{} : authority.substr(colon);
    if (!std::all_of(host.begin(), host.end(), is_reg_name_char))
      return std::nullopt;
  }
  if (host.empty())
    return std::nullopt;
  out.port = out.tls ? 443 : 80;
  if (!rest.empty()) {
    const auto port = rest.front() == ':' ? read_port(rest.substr(1)) : std::nullopt;
    if (!port)
      return std::nullopt;
    out.port = *port;
  }
  out.host = std::string{host};

  auto target =
      authority_end == std::string_view::npos ? std::string_view{} : text.substr(authority_end);
  target = target.substr(0, target.find('#'));
  out.target =
      target.empty() || target.front() == '?' ? "/" + std::string{target} : std::string{target};
  return out;
}

bool is_http_url(std::string_view text) noexcept {
  const auto url = parse_http_url(text);
  if (!url)
    return false;
  return url->host.find(':') != std::string::npos ? is_ipv6_address(url->host)
                                                  : is_host_name(url->host);
}

} // namespace vcs::domain
