#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

// An absolute http(s) URL as the service reads it, everywhere: where a URL
// is written (webhook_url), where its host is checked against internal
// addresses, and where a request is sent to it.
struct http_url {
  bool tls = false;       // https
  std::string host;       // as written, IPv6 without its brackets
  std::uint16_t port = 0; // the URL's, or 80/443
  std::string target;     // path and query, "/" when empty; no fragment
};

// The one URL reader (RFC 3986, for http and https): printable ASCII only;
// the scheme in any case; no userinfo ('@') and no backslash in the
// authority (both only serve to disguise the host); a host of letters,
// digits, '-', '.' and '_' or a bracketed IPv6 address (no zone id), so
// percent-encoded and non-ASCII hosts are refused rather than guessed at;
// a port of 1 to 65535 when one is written. nullopt for anything else.
std::optional<http_url> parse_http_url(std::string_view text);

// True for a URL parse_http_url reads whose host is also a well-formed DNS
// name (labels of letters, digits and inner '-') or a valid IPv6 address:
// what a tenant may store.
bool is_http_url(std::string_view text) noexcept;

} // namespace vcs::domain
