#pragma once

#include "domain/outbound_address.hpp"
#include "http/inputs/json.hpp"
#include "http/server/beast.hpp"
#include "http/server/body_budget.hpp"
#include "http/server/connection_limits.hpp"
#include "http/server/download.hpp"
#include "http/server/event_hub.hpp"
#include "http/server/server.hpp"
#include "http/server/unseen_keys.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace vcs::http {

class session;

// The live connections, so a shutdown can close idle ones and wait for the
// busy ones.
class session_tracker {
public:
  void add(const std::shared_ptr<session>& s);
  void remove(session* s);
  std::vector<std::shared_ptr<session>> snapshot();
  // True when every session ended before the deadline.
  bool wait_empty(std::chrono::steady_clock::time_point deadline);
  // Set when a graceful shutdown begins: readiness answers 503 from then on.
  std::atomic<bool> draining{false};

private:
  std::mutex mtx_;
  std::condition_variable cv_;
  std::unordered_map<session*, std::weak_ptr<session>> sessions_;
};

struct session_settings {
  listener_kind listener;
  const server_options& options;
  const dispatch_fn& dispatch;
  session_tracker& tracker;
  std::shared_ptr<connection_limits> limits;
  // The listener's routes: each request is routed once, when its header
  // arrives (its body limit, the probes answered here, the worker's route).
  std::shared_ptr<const route_tables> routes;
  // The node's bytes of bulk bodies, shared by both listeners.
  std::shared_ptr<body_budget> large_bodies;
  // Keys not known yet in flight per client address (public listener).
  std::shared_ptr<unseen_keys> unseen;
};

// One connection (Beast's advanced server example): a fresh parser per
// request with its limits, a deadline before every read and write. An
// event stream's answer keeps it open as the stream's sink
// (session_events.cpp), a download's as its body's (session_download.cpp).
class session : public std::enable_shared_from_this<session>,
                public event_hub::sink,
                public download::sink {
public:
  // `peer`: the address the connection comes from.
  session(tcp::socket&& socket, session_settings settings, const domain::ip_address& peer);
  ~session();

  // Reads a trusted proxy's PROXY header, if any, then admits the
  // connection under the listener's limits and serves it.
  void start();
  // Called at shutdown: closes the connection now if no request is in
  // progress, otherwise after its response.
  void shutdown();

  // event_hub::sink, from the hub's thread, and download::sink, from a
  // worker.
  bool deliver(std::string frames) override;
  std::size_t backlog() const override { return backlog_; }
  void end() override;
  void finish() override;
  bool open() const override { return !stream_ended_; }

private:
  // An event stream (session_events.cpp): its header, then frames as the
  // hub delivers them and a comment every 15 s while none come, until the
  // client closes, a write stalls 30 s, or the node shuts down.
  void start_stream(outbound_response r);
  void follow_events(event_stream_start start);
  void queue_frames(std::string frames);
  void write_frames();
  void watch_peer();
  void beat();
  void end_stream();
  // A download (session_download.cpp): its header, chunked, then the
  // chunks its worker delivers, until it finishes or the client closes.
  // Wakes the download's worker waiting for the client (if any).
  void tell_download();
  void start_download(outbound_response r);

  // A trusted proxy's connection (session_proxy.cpp): the PROXY protocol
  // header it may start with names the client; then the connection is
  // admitted, counted against that client's limit until it ends.
  void read_proxy_header();
  void admit_connection();
  // The current request's client: a trusted peer's X-Forwarded-For says
  // who it carries.
  std::string request_client() const;

  void read_header();
  void on_header(beast::error_code ec);
  // Whose share of the workers the request takes: its tenant's when this
  // node knows its key, else the key's own, or its client address's when
  // it has none.
  std::uint64_t share() const;
  // A bulk request whose key this node has not seen: authenticated by a
  // worker from its header before its body is read.
  void authenticate_first();
  // Who sends the request: its key or session cookie, and what a cookie
  // request is checked by.
  void identify(inbound_request& r) const;
  void on_authenticated(outbound_response r);
  // The body of an admitted request: its share of large-body-memory, its
  // item counter, then its bytes.
  void admit_body();
  void read_body();
  // A body is read piece by piece; a list body's items are counted as they
  // come.
  void read_body_piece();
  void on_body_piece(beast::error_code ec);
  void on_body(beast::error_code ec);
  void handle_read_error(beast::error_code ec);
  void dispatch_request();
  // Answers GET /healthz from the probed database state (server_options).
  // Answers a probe (/healthz, /livez, /readyz) on the I/O thread.
  void answer_inline(std::string_view route, outbound_response r,
                     std::chrono::steady_clock::time_point started, bool keep_alive);
  void send(outbound_response response, bool keep_alive);
  // The header every answer carries: r's status, content type and headers,
  // and the request's id (a plain answer, a download or an event stream).
  void set_header(bhttp::response_header<>& header, const outbound_response& r) const;
  void on_write(beast::error_code ec, bool keep_alive);
  // Answers an unreadable request and closes after a bounded drain, so the
  // client reads the answer instead of a connection reset. Counted as a
  // refusal under `cause`.
  // `mid_body`: the client may still be sending a body it was allowed, so
  // up to the route's body limit is dropped within the request's read
  // deadline, not 1 MiB (or the declared length of a body refused for its
  // length, up to the bulk body limit) within 2 s.
  void reject(unsigned status, std::string_view cause, std::string_view message,
              bool retry_later = false, bool mid_body = false);
  // Writes `r` and closes after the bounded drain (reject).
  void answer_and_close(outbound_response r, bool mid_body);
  void linger_close(bool mid_body);
  void drain(std::size_t so_far, std::size_t most);
  void close();

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  std::shared_ptr<bhttp::response<bhttp::string_body>> response_;
  session_settings settings_;
  std::string request_id_;
  // The current request's routing, from its header.
  routed_request routed_;
  // The current list body's items so far, and how much of the body was read.
  std::optional<array_item_counter> items_;
  std::size_t counted_ = 0;
  // The connection's client (a trusted proxy's, or the one its PROXY header
  // names) and its address as text, counted against the listener's limits
  // while the connection holds a slot; the current request's client.
  domain::ip_address peer_;
  std::string address_;
  bool holds_slot_ = false;
  bool per_client_slot_ = true;
  std::string client_;
  // The current request's bearer token hashed, when its route takes a key,
  // and its place among its address's unseen keys while it is one.
  std::string key_hash_;
  std::shared_ptr<void> unseen_lease_;
  bool busy_ = false;
  bool closing_ = false;
  std::unique_ptr<std::array<char, 65536>> drain_;
  // What a drain outside a body reads at most: 1 MiB, or the declared
  // length of a body refused before it was read.
  std::size_t drain_most_ = 0;
  // The current bulk body's share of large-body-memory.
  std::shared_ptr<body_budget::lease> body_lease_;

  // An event stream's state; the atomics are read by the hub's thread.
  std::atomic<bool> stream_ended_{false};
  std::atomic<std::size_t> backlog_{0};
  // A download's body, told as its bytes go out (download::progressed).
  std::weak_ptr<download> download_;
  std::shared_ptr<void> stream_slot_;
  std::string pending_;
  std::string sending_;
  bool writing_ = false;
  // A finished download: the connection closes once its last chunk is sent.
  bool close_when_sent_ = false;
  std::chrono::steady_clock::time_point write_started_{};
  std::unique_ptr<net::steady_timer> beat_;
};

} // namespace vcs::http
