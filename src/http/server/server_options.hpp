#pragma once

#include "domain/forwarded_client.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace vcs::http {

class metrics;
class token_book;

// The listeners' settings; the defaults are the service's (app::config
// nests this struct).
struct server_options {
  std::string public_listen = "127.0.0.1:8080";
  std::string operator_listen = "127.0.0.1:8081";
  std::size_t io_threads = 2;
  std::size_t header_limit = 16 * 1024;
  std::size_t body_limit = 1024 * 1024;
  // Bulk lead routes carry large arrays.
  std::size_t bulk_body_limit = 64 * 1024 * 1024;
  // Bytes of bulk bodies the node holds at once (http::body_budget); 0: an
  // eighth of the machine's memory.
  std::size_t large_body_memory = 0;
  // Waiting for the next request on a keep-alive connection, header included.
  std::chrono::milliseconds idle_timeout{30'000};
  // Reading a request body, and writing a response.
  std::chrono::milliseconds read_timeout{30'000};
  // Open connections per listener, and per client address on the public
  // listener (0: no limit); more are answered 503 and closed.
  std::size_t max_connections = 10'000;
  std::size_t max_connections_per_client = 1'000;
  // Different API keys this node does not know yet in flight per client
  // address on the public listener (http::unseen_keys); more get 429.
  std::size_t unseen_keys_per_client = 8;
  // Load balancers whose word on the client is taken: a PROXY protocol v2
  // header on their connections, X-Forwarded-For on their requests. Empty:
  // every peer is the client.
  domain::trusted_proxies trusted_proxies;
  // How long a graceful shutdown waits for in-flight requests.
  std::chrono::milliseconds shutdown_timeout{30'000};
  // When set, GET /healthz is answered on the I/O thread from the
  // database's last probed state, without a hand-off to the actors.
  std::function<bool()> database_up;
  // When set, GET /readyz is answered on the I/O thread too: nullopt when
  // ready, else why not (and "draining" once a shutdown began). GET /livez
  // is always answered there.
  std::function<std::optional<std::string>()> unready;
  // Counts those inline answers.
  std::shared_ptr<metrics> inline_metrics;
  // The keys this node has read (shared with the request workers); when
  // set, the public listener gives each tenant one share and refuses
  // unknown keys early.
  std::shared_ptr<token_book> tokens;
};

} // namespace vcs::http
