#pragma once

#include <string_view>

namespace vcs::domain {

// True for an absolute http(s) URL with a host: printable ASCII only, the
// scheme http or https (any case), and a DNS name, IPv4 or bracketed IPv6
// address with an optional port.
bool is_http_url(std::string_view text) noexcept;

} // namespace vcs::domain
