// Raw bytes as one HTTP/1.1 request on the public and operator listeners:
// the Beast parser with the service's limits (session.cpp), the target
// split and decoded, the route tables, and for a matched public route the
// reader its handler uses (request_worker.cpp, request_shapes.cpp).

#include "invariants.hpp"
#include "request_shapes.hpp"

#include "http/inputs/query.hpp"
#include "http/server/beast.hpp"
#include "http/server/server.hpp"
#include "http/work/routes.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

using namespace vcs;

namespace {

void route(const http::router& table, bool is_public, const std::string& method,
           const http::target& t, std::string_view body) {
  auto match = table.find(method, t.path);
  switch (match.result) {
  case http::router::outcome::not_found:
    return;
  case http::router::outcome::wrong_method:
    FUZZ_CHECK(!match.allow.empty() && !match.wrong_method_message.empty());
    return;
  case http::router::outcome::matched:
    break;
  }
  FUZZ_CHECK(match.found != nullptr && match.found->method == method);
  for (const auto& p : match.params)
    FUZZ_CHECK(!p.value.empty());
  if (is_public)
    fuzz::matched_route(match.found->method + " " + match.found->pattern, t, match.params, body);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const http::router public_table = http::public_routes();
  static const http::router operator_table = http::operator_routes();
  static const http::server_options limits;

  // session.cpp read_header: the header with the largest body limit, which
  // on_header narrows by route before the body is read.
  http::bhttp::request_parser<http::bhttp::string_body> parser;
  parser.header_limit(static_cast<std::uint32_t>(limits.header_limit));
  parser.body_limit(std::max(limits.body_limit, limits.bulk_body_limit));
  parser.eager(false);
  http::beast::error_code ec;
  http::net::const_buffer input{data, size};
  input += parser.put(input, ec);
  if (ec || !parser.is_header_done())
    return 0; // incomplete (the client is still sending) or rejected
  auto method_text = parser.get().method_string();
  auto raw_target = parser.get().target();
  auto routed = http::route_request(public_table, {method_text.data(), method_text.size()},
                                    {raw_target.data(), raw_target.size()});
  auto limit = http::request_body_limit(routed.route(), limits);
  parser.body_limit(limit);
  if (auto length = parser.content_length(); length && *length > limit)
    return 0; // 413
  parser.eager(true);
  while (!parser.is_done()) {
    auto used = parser.put(input, ec);
    input += used;
    if (ec || used == 0)
      return 0; // incomplete or rejected
  }

  const auto& req = parser.get();
  std::string method{req.method_string()};
  FUZZ_CHECK(!method.empty());
  // request_worker.cpp handle: the target the session decoded, then the
  // listener's table.
  const auto& t = routed.decoded_target;
  if (!t)
    return 0; // 400 Invalid request target
  // Path parameters and query values end up in error messages (JSON).
  FUZZ_CHECK(fuzz::is_utf8(t->path));
  for (const auto& [key, value] : t->query)
    FUZZ_CHECK(fuzz::is_utf8(key) && fuzz::is_utf8(value));
  std::string_view body = req.body();
  route(public_table, true, method, *t, body);
  route(operator_table, false, method, *t, body);
  return 0;
}
