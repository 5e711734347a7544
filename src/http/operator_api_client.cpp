#include "http/operator_api_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <stdexcept>

namespace vcs::http {

namespace {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = boost::asio::ip::tcp;

// The operator API's lists are bounded, but a thousand deliveries with
// their payloads run to megabytes.
constexpr std::uint64_t response_body_limit = 256ull << 20;

// host:port, [v6]:port or host (port 80) into its parts; a wildcard host
// becomes this machine's loopback address.
operator_endpoint split_host_port(const std::string& authority) {
  operator_endpoint out;
  std::string rest;
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string::npos)
      throw std::invalid_argument("no ']' in '" + authority + "'");
    out.host = authority.substr(1, close - 1);
    rest = authority.substr(close + 1);
  } else {
    auto colon = authority.rfind(':');
    out.host = authority.substr(0, colon);
    if (colon != std::string::npos)
      rest = authority.substr(colon);
  }
  out.port = rest.empty() ? "80" : rest.substr(1);
  if (out.host.empty() || out.port.empty() || (!rest.empty() && rest.front() != ':'))
    throw std::invalid_argument("expected host:port, got '" + authority + "'");
  if (out.host == "0.0.0.0")
    out.host = "127.0.0.1";
  else if (out.host == "::")
    out.host = "::1";
  return out;
}

} // namespace

operator_endpoint operator_endpoint_of(const std::string& url, const std::string& listen) {
  if (url.empty())
    return split_host_port(listen);
  constexpr std::string_view scheme = "http://";
  if (url.rfind(scheme, 0) != 0)
    throw std::invalid_argument("operator-url must start with http://, got '" + url + "'");
  auto authority = url.substr(scheme.size());
  while (!authority.empty() && authority.back() == '/')
    authority.pop_back();
  if (authority.find('/') != std::string::npos)
    throw std::invalid_argument("operator-url must be http://host:port, got '" + url + "'");
  return split_host_port(authority);
}

operator_response call_operator_api(const operator_endpoint& at, const std::string& token,
                                    std::string_view method, const std::string& target,
                                    const std::string& body, std::chrono::seconds timeout) {
  boost::asio::io_context io;
  beast::tcp_stream stream{io};
  const auto where = at.host + " port " + at.port;
  try {
    stream.expires_after(timeout);
    tcp::resolver resolver{io};
    stream.connect(resolver.resolve(at.host, at.port));
    bhttp::request<bhttp::string_body> req{bhttp::string_to_verb({method.data(), method.size()}),
                                           target, 11};
    req.set(bhttp::field::host, at.host);
    req.set(bhttp::field::authorization, "Bearer " + token);
    req.set(bhttp::field::user_agent, "voice-campaign-service admin");
    if (!body.empty()) {
      req.set(bhttp::field::content_type, "application/json");
      req.body() = body;
    }
    req.prepare_payload();
    stream.expires_after(timeout);
    bhttp::write(stream, req);
    beast::flat_buffer buffer;
    bhttp::response_parser<bhttp::string_body> parser;
    parser.body_limit(response_body_limit);
    stream.expires_after(timeout);
    bhttp::read(stream, buffer, parser);
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    auto res = parser.release();
    return {res.result_int(), std::move(res.body())};
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot reach the operator API at " + where + ": " +
                             e.code().message());
  }
}

} // namespace vcs::http
