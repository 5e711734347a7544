#pragma once

#include <chrono>
#include <string>
#include <string_view>

// The admin command's client of the operator API: a blocking request to an
// address the operator gives, from the operator's shell. The service's own
// outbound requests (webhooks, providers) go through outbound_client and
// its address policy instead.

namespace vcs::outbound {

// The operator API's answer: its status and body as sent.
struct operator_response {
  unsigned status = 0;
  std::string body;
};

// Where the admin command finds the operator API: `url` when given
// (http://host:port, or https://host[:port] through a proxy that
// terminates TLS), otherwise the operator listener's address, a wildcard
// address meaning this machine. Throws std::invalid_argument for a URL it
// cannot use.
struct operator_endpoint {
  std::string host;
  std::string port;
  // The certificate is checked against the system's authorities, or the
  // file SSL_CERT_FILE names, and must name `host`.
  bool tls = false;
};
operator_endpoint operator_endpoint_of(const std::string& url, const std::string& listen);

// One request with the operator's bearer token, answered within `timeout`
// (name lookup, connection and TLS handshake included); throws
// std::runtime_error when the API cannot be reached or does not answer in
// time.
operator_response call_operator_api(const operator_endpoint& at, const std::string& token,
                                    std::string_view method, const std::string& target,
                                    const std::string& body, std::chrono::seconds timeout);

} // namespace vcs::outbound
