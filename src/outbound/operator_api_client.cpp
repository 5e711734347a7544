#include "outbound/operator_api_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <stdexcept>

namespace vcs::outbound {

namespace {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace ssl = boost::asio::ssl;
using tcp = boost::asio::ip::tcp;

// The operator API's lists are bounded, but a thousand deliveries with
// their payloads run to megabytes.
constexpr std::uint64_t response_body_limit = 256ull << 20;

// host:port, [v6]:port or host (the scheme's port) into its parts; a
// wildcard host becomes this machine's loopback address.
operator_endpoint split_host_port(const std::string& authority, bool tls) {
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
  out.tls = tls;
  out.port = rest.empty() ? (tls ? "443" : "80") : rest.substr(1);
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
    return split_host_port(listen, false);
  const bool tls = url.rfind("https://", 0) == 0;
  if (!tls && url.rfind("http://", 0) != 0)
    throw std::invalid_argument("operator-url must start with http:// or https://, got '" + url +
                                "'");
  auto authority = url.substr(url.find("://") + 3);
  while (!authority.empty() && authority.back() == '/')
    authority.pop_back();
  if (authority.find('/') != std::string::npos)
    throw std::invalid_argument("operator-url must be http(s)://host:port, got '" + url + "'");
  return split_host_port(authority, tls);
}

namespace {

// Connects, shakes hands when `Stream` is TLS, writes the request and reads
// the answer; false when `timeout` passed first. Beast's stream deadlines
// bound asynchronous operations only, so every step is one, and running
// the context for `timeout` bounds them all, the name lookup included.
template <class Stream>
bool exchange(boost::asio::io_context& io, Stream& stream, const operator_endpoint& at,
              const bhttp::request<bhttp::string_body>& req,
              bhttp::response_parser<bhttp::string_body>& parser, std::chrono::seconds timeout) {
  constexpr bool tls = !std::is_same_v<Stream, beast::tcp_stream>;
  tcp::resolver resolver{io};
  beast::flat_buffer buffer;
  beast::error_code failed;
  bool done = false;
  auto finish = [&](beast::error_code ec) {
    failed = ec;
    done = true;
  };
  auto on_written = [&](beast::error_code ec, std::size_t) {
    if (ec)
      return finish(ec);
    bhttp::async_read(stream, buffer, parser,
                      [&](beast::error_code read_ec, std::size_t) { finish(read_ec); });
  };
  auto send = [&](beast::error_code ec) {
    if (ec)
      return finish(ec);
    bhttp::async_write(stream, req, on_written);
  };
  auto on_connected = [&](beast::error_code ec, const tcp::endpoint&) {
    if (ec)
      return finish(ec);
    if constexpr (tls)
      stream.async_handshake(ssl::stream_base::client, send);
    else
      send(ec);
  };
  resolver.async_resolve(at.host, at.port,
                         [&](beast::error_code ec, const tcp::resolver::results_type& found) {
                           if (ec)
                             return finish(ec);
                           beast::get_lowest_layer(stream).async_connect(found, on_connected);
                         });
  io.run_for(timeout);
  if (failed)
    throw boost::system::system_error(failed);
  return done;
}

} // namespace

operator_response call_operator_api(const operator_endpoint& at, const std::string& token,
                                    std::string_view method, const std::string& target,
                                    const std::string& body, std::chrono::seconds timeout) {
  boost::asio::io_context io;
  const auto where = (at.tls ? "https://" : "http://") + at.host + ":" + at.port;
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
  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(response_body_limit);
  bool answered = false;
  try {
    if (at.tls) {
      ssl::context context{ssl::context::tls_client};
      context.set_default_verify_paths();
      context.set_verify_mode(ssl::verify_peer);
      beast::ssl_stream<beast::tcp_stream> stream{io, context};
      stream.set_verify_callback(ssl::host_name_verification(at.host));
      // The name the proxy picks its certificate by (SNI).
      if (!SSL_set_tlsext_host_name(stream.native_handle(), at.host.c_str()))
        throw std::runtime_error("cannot send the server name " + at.host);
      answered = exchange(io, stream, at, req, parser, timeout);
    } else {
      beast::tcp_stream stream{io};
      answered = exchange(io, stream, at, req, parser, timeout);
    }
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot reach the operator API at " + where + ": " +
                             e.code().message());
  }
  if (!answered)
    throw std::runtime_error("the operator API at " + where + " did not answer within " +
                             std::to_string(timeout.count()) + " s");
  auto res = parser.release();
  return {res.result_int(), std::move(res.body())};
}

} // namespace vcs::outbound
