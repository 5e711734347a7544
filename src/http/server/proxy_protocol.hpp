#pragma once

#include "domain/outbound_address.hpp"

#include <cstddef>
#include <optional>
#include <string_view>

namespace vcs::http {

// A PROXY protocol version 2 header (HAProxy's send-proxy-v2), read from the
// first bytes of a connection from a trusted proxy: the binary header that
// names the client the proxy carries.
struct proxy_header {
  enum class outcome {
    need_more, // the bytes so far begin a header: read more
    absent,    // the connection does not start with one: plain HTTP
    malformed, // a header that is broken, or longer than max_length
    read,
  };
  outcome is = outcome::absent;
  // The header's bytes (when read), to consume before the HTTP request.
  std::size_t length = 0;
  // The client's address: none for a LOCAL header (the proxy's own health
  // check) or an address family other than TCP over IPv4 or IPv6.
  std::optional<domain::ip_address> source;
};

// The most a header may take, its TLVs included (HAProxy's own stay far
// below).
constexpr std::size_t proxy_header_max_length = 1'024;

proxy_header parse_proxy_header(std::string_view bytes);

} // namespace vcs::http
