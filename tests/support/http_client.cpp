#include "http_client.hpp"

#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <cctype>

namespace vcs::test {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

struct http_client::impl {
  std::string host;
  unsigned short port;
  net::io_context ioc;
  std::unique_ptr<beast::tcp_stream> stream;
  beast::flat_buffer buffer;
  // Set when the server answered "Connection: close"; the next request
  // reconnects.
  bool reconnect = false;

  void connect() {
    stream = std::make_unique<beast::tcp_stream>(ioc);
    stream->expires_after(std::chrono::seconds(60));
    stream->connect(tcp::endpoint{net::ip::make_address(host), port});
    buffer.clear();
    reconnect = false;
  }
};

http_client::http_client(std::string host, unsigned short port) : impl_(std::make_unique<impl>()) {
  impl_->host = std::move(host);
  impl_->port = port;
  impl_->connect();
}

http_client::~http_client() = default;

http_response http_client::read_response() {
  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(256 * 1024 * 1024);
  impl_->stream->expires_after(std::chrono::seconds(120));
  bhttp::read(*impl_->stream, impl_->buffer, parser);
  auto& res = parser.get();
  http_response out;
  out.status = res.result_int();
  out.body = res.body();
  for (auto& f : res) {
    std::string name{f.name_string()};
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    out.headers[name] = std::string{f.value()};
  }
  if (!res.keep_alive())
    impl_->reconnect = true;
  return out;
}

http_response http_client::request(const std::string& method, const std::string& target,
                                   const std::string& body, const header_list& headers) {
  for (int attempt = 0;; ++attempt) {
    try {
      if (impl_->reconnect)
        impl_->connect();
      bhttp::request<bhttp::string_body> req{bhttp::string_to_verb(method), target, 11};
      req.set(bhttp::field::host, impl_->host);
      for (auto& [k, v] : headers)
        req.set(k, v);
      if (!body.empty() || method == "POST" || method == "PATCH" || method == "PUT" ||
          method == "DELETE")
        req.body() = body;
      req.prepare_payload();
      impl_->stream->expires_after(std::chrono::seconds(120));
      bhttp::write(*impl_->stream, req);
      return read_response();
    } catch (const beast::system_error&) {
      if (attempt > 0)
        throw;
      impl_->connect();
    }
  }
}

void http_client::send_raw(const std::string& bytes) {
  net::write(impl_->stream->socket(), net::buffer(bytes));
}

bool http_client::closed_by_peer() {
  impl_->stream->expires_after(std::chrono::seconds(10));
  char c;
  beast::error_code ec;
  impl_->stream->read_some(net::buffer(&c, 1), ec);
  return ec == net::error::eof || ec == net::error::connection_reset;
}

header_list bearer(const std::string& token) {
  return {{"Authorization", "Bearer " + token}, {"Content-Type", "application/json"}};
}

} // namespace vcs::test
