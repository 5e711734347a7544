#include "http/server/session.hpp"

#include "domain/api_key.hpp"
#include "domain/lead.hpp"
#include "http/metrics/metrics.hpp"
#include "http/render/error_mapping.hpp"
#include "http/server/access_log.hpp"
#include "http/server/bearer_token.hpp"
#include "http/server/member_cookie.hpp"
#include "http/server/token_book.hpp"
#include "http/work/handler.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>

namespace vcs::http {

namespace {

// The session the request's cookies carry, if any (member_cookie.hpp).
cookie_session cookie_token(const bhttp::request<bhttp::string_body>& req) {
  const auto header = req[bhttp::field::cookie];
  const auto kind =
      req[boost::beast::string_view{session_kind_header.data(), session_kind_header.size()}];
  return chosen_session({header.data(), header.size()}, {kind.data(), kind.size()});
}

constexpr std::string_view continue_response = "HTTP/1.1 100 Continue\r\n\r\n";
constexpr std::size_t max_drain_bytes = 1024 * 1024;
constexpr std::chrono::seconds max_drain_time{2};
constexpr std::string_view large_bodies_busy =
    "Service busy with large request bodies; try again shortly";
// Beast reads into the buffer's spare capacity, at least 512 bytes: after a
// header that is about all there is, so a 1.8 MB bulk body took 3,500 reads
// (14-24 ms, against 1.5 ms for the socket alone). The buffer doubles, up to
// this, each time as much of the body has come as it holds: it never holds
// more than twice what the client has sent, and is given back once the body
// is in.
constexpr std::size_t body_read_buffer = 64 * 1024;
// What an idle connection keeps of it.
constexpr std::size_t kept_buffer = 4096;

// The client's X-Request-Id when it is a sane token, else a fresh one.
std::string request_id_for(std::string_view given) {
  if (!given.empty() && given.size() <= 128 && std::all_of(given.begin(), given.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
      }))
    return std::string{given};
  thread_local std::mt19937_64 rng{std::random_device{}()};
  static constexpr char hex[] = "0123456789abcdef";
  std::string id(16, '0');
  auto bits = rng();
  for (auto& c : id) {
    c = hex[bits & 0xF];
    bits >>= 4;
  }
  return id;
}

} // namespace

void session_tracker::add(const std::shared_ptr<session>& s) {
  std::lock_guard guard{mtx_};
  sessions_.emplace(s.get(), s);
}

void session_tracker::remove(session* s) {
  {
    std::lock_guard guard{mtx_};
    sessions_.erase(s);
  }
  cv_.notify_all();
}

std::vector<std::shared_ptr<session>> session_tracker::snapshot() {
  std::lock_guard guard{mtx_};
  std::vector<std::shared_ptr<session>> out;
  for (auto& [_, weak] : sessions_)
    if (auto s = weak.lock())
      out.push_back(std::move(s));
  return out;
}

bool session_tracker::wait_empty(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock{mtx_};
  return cv_.wait_until(lock, deadline, [this] { return sessions_.empty(); });
}

session::session(tcp::socket&& socket, session_settings settings, const domain::ip_address& peer)
    : stream_(std::move(socket)), settings_(settings), peer_(peer), address_(peer.to_string()),
      client_(address_) {}

session::~session() {
  if (holds_slot_)
    settings_.limits->release(address_, per_client_slot_);
  settings_.tracker.remove(this);
}

void session::start() {
  settings_.tracker.add(shared_from_this());
  net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
    if (self->settings_.options.trusted_proxies.trusts(self->peer_))
      return self->read_proxy_header();
    self->admit_connection();
  });
}

void session::shutdown() {
  net::post(stream_.get_executor(), [self = shared_from_this()] {
    self->closing_ = true;
    bool mid_request =
        self->busy_ || (self->parser_ && self->parser_->got_some()) || self->buffer_.size() > 0;
    if (!mid_request)
      self->close();
  });
}

void session::read_header() {
  if (closing_)
    return close();
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(settings_.options.header_limit));
  // Beast checks Content-Length against body_limit while it parses the
  // header, before the route is known: allow the largest (bulk) limit here
  // and narrow it in on_header.
  parser_->body_limit(std::max(settings_.options.body_limit, settings_.options.bulk_body_limit));
  stream_.expires_after(settings_.options.idle_timeout);
  bhttp::async_read_header(
      stream_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
}

void session::on_header(beast::error_code ec) {
  if (ec)
    return handle_read_error(ec);
  auto& req = parser_->get();
  client_ = request_client();
  auto given_id = req["X-Request-Id"];
  request_id_ = request_id_for({given_id.data(), given_id.size()});
  const auto& routes = settings_.listener == listener_kind::operator_api
                           ? settings_.routes->operator_api
                           : settings_.routes->public_api;
  auto method = req.method_string();
  auto target = req.target();
  routed_ = route_request(routes, {method.data(), method.size()}, {target.data(), target.size()});
  auto limit = request_body_limit(routed_.route(), settings_.options);
  parser_->body_limit(limit);
  const auto length = parser_->content_length();
  // The client is sending that body: dropping all of it (bounded, within
  // 2 s) lets it read a refusal instead of a reset from unread bytes.
  if (length)
    drain_most_ = static_cast<std::size_t>(
        std::min<std::uint64_t>(*length, std::max(settings_.options.bulk_body_limit, limit)));
  if (length && *length > limit)
    return reject(413, "body_too_large", "Request body too large");
  const auto route = routed_.route();
  const bool bulk = route && route->target->body() == body_size::bulk;
  key_hash_.clear();
  unseen_lease_.reset();
  if (route && route->target->required_access() == access::api_key &&
      settings_.listener == listener_kind::public_api) {
    const auto header = req[bhttp::field::authorization];
    const auto token = bearer_token({header.data(), header.size()});
    // A bulk request that cannot authenticate at all is answered 401
    // without its body, as the request worker would answer it after.
    if (bulk && header.empty() && cookie_token(req).token.empty())
      return reject(401, "unauthenticated", "Authorization header not found");
    // A session is read by a worker before the body, as an
    // unseen key's is.
    if (bulk && header.empty())
      return authenticate_first();
    if (bulk && token.empty())
      return reject(401, "unauthenticated", "Invalid API key");
    key_hash_ = token.empty() ? std::string{} : domain::hash_api_key(token);
    if (!key_hash_.empty() && settings_.options.tokens) {
      const auto book =
          settings_.options.tokens->look_up(key_hash_, std::chrono::steady_clock::now());
      if (book.is == token_book::standing::unknown)
        return reject(401, "unknown_key", "Invalid API key");
      if (book.is == token_book::standing::unseen && settings_.unseen) {
        unseen_lease_ = settings_.unseen->admit(client_, key_hash_);
        if (!unseen_lease_)
          return reject(429, "unseen_keys",
                        "Too many unknown API keys from this address at once; try again shortly",
                        true);
      }
      if (bulk && book.is == token_book::standing::unseen)
        return authenticate_first();
    }
  }
  admit_body();
}

std::uint64_t session::share() const {
  if (settings_.listener == listener_kind::operator_api) {
    const auto header = parser_->get()[bhttp::field::authorization];
    return client_key({header.data(), header.size()});
  }
  if (!key_hash_.empty() && settings_.options.tokens) {
    const auto book =
        settings_.options.tokens->look_up(key_hash_, std::chrono::steady_clock::now());
    if (book.is == token_book::standing::known)
      return tenant_client_key(book.tenant_id);
  }
  // A key not known yet is a share of its own (unseen_keys bounds how many
  // one address has); no key, its address's.
  if (!key_hash_.empty())
    return std::hash<std::string>{}(key_hash_);
  return address_client_key(client_);
}

void session::identify(inbound_request& r) const {
  const auto& req = parser_->get();
  r.authorization = std::string{req[bhttp::field::authorization]};
  r.address = client_;
  if (settings_.listener != listener_kind::public_api)
    return;
  r.origin = std::string{req[bhttp::field::origin]};
  r.host = std::string{req[bhttp::field::host]};
  const auto cookie = cookie_token(req);
  r.session_token = std::string{cookie.token};
  r.session = cookie.kind;
  if (auto csrf = req.find({csrf_header_name.data(), csrf_header_name.size()}); csrf != req.end())
    r.csrf_token = std::string{csrf->value()};
  if (auto site = req.find("Sec-Fetch-Site"); site != req.end())
    r.fetch_site = std::string{site->value()};
  if (auto last = req.find("Last-Event-ID"); last != req.end())
    r.last_event_id = std::string{last->value()};
}

void session::authenticate_first() {
  busy_ = true;
  auto& req = parser_->get();
  http_call call;
  call.request.listener = settings_.listener;
  call.request.method = std::string{req.method_string()};
  call.request.target = std::string{req.target()};
  identify(call.request);
  call.request.request_id = request_id_;
  call.request.received = std::chrono::steady_clock::now();
  call.request.share = share();
  call.request.authenticate_only = true;
  call.routed = routed_;
  call.reply = [self = shared_from_this(), lease = std::move(unseen_lease_)](outbound_response r) {
    net::post(self->stream_.get_executor(),
              [self, r = std::move(r)]() mutable { self->on_authenticated(std::move(r)); });
  };
  settings_.dispatch(std::move(call));
}

void session::on_authenticated(outbound_response r) {
  busy_ = false;
  if (r.status != 100)
    return answer_and_close(std::move(r), false);
  admit_body();
}

void session::admit_body() {
  auto& req = parser_->get();
  const auto length = parser_->content_length();
  body_lease_.reset();
  if (auto route = routed_.route(); route && route->target->body() == body_size::bulk) {
    // A bulk body: its bytes count against the node's large-body memory
    // before any is read (as they arrive when sent in chunks).
    body_lease_ = settings_.large_bodies->take(length ? static_cast<std::size_t>(*length) : 0);
    if (!body_lease_)
      return reject(503, "large_body_memory", large_bodies_busy, true);
  }
  items_.reset();
  counted_ = 0;
  const auto type = req[bhttp::field::content_type];
  if (auto most = request_body_items(routed_.route(), {type.data(), type.size()}))
    items_.emplace(list_body_limits{most, domain::bulk_item_max_bytes, domain::bulk_max_values});
  if (beast::iequals(req[bhttp::field::expect], "100-continue")) {
    net::async_write(stream_, net::buffer(continue_response.data(), continue_response.size()),
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (ec)
                         return self->close();
                       self->read_body();
                     });
    return;
  }
  read_body();
}

void session::read_body() {
  stream_.expires_after(settings_.options.read_timeout);
  read_body_piece();
}

void session::read_body_piece() {
  // An empty body is complete with its header; reading on would wait for
  // bytes that never come.
  if (parser_->is_done())
    return on_body({});
  bhttp::async_read_some(
      stream_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_body_piece(ec); });
}

void session::on_body_piece(beast::error_code ec) {
  if (ec)
    return handle_read_error(ec);
  const std::string_view body = parser_->get().body();
  if (const auto v =
          items_ ? items_->feed(body.substr(counted_)) : array_item_counter::verdict::fine;
      v != array_item_counter::verdict::fine) {
    // The client may still be sending the rest of its body: read and drop
    // up to its route's limit, so it gets to read the answer.
    using verdict = array_item_counter::verdict;
    const auto e = items_->refusal(v);
    const std::string_view cause = v == verdict::item_too_large    ? "item_too_large"
                                   : v == verdict::too_many_values ? "too_many_values"
                                                                   : "too_many_items";
    return reject(status_of(e.code), cause, e.message, false, true);
  }
  counted_ = body.size();
  if (body_lease_ && !body_lease_->grow_to(body.size()))
    return reject(503, "large_body_memory", large_bodies_busy, true, true);
  if (const auto room = buffer_.capacity(); room < body_read_buffer && body.size() >= room)
    buffer_.reserve(std::min(2 * std::max<std::size_t>(room, 512), body_read_buffer));
  read_body_piece();
}

void session::handle_read_error(beast::error_code ec) {
  if (ec == bhttp::error::end_of_stream || ec == net::error::operation_aborted ||
      ec == beast::error::timeout || ec == net::error::connection_reset || ec == net::error::eof)
    return close();
  if (ec == bhttp::error::body_limit)
    return reject(413, "body_too_large", "Request body too large");
  if (ec == bhttp::error::header_limit)
    return reject(431, "headers_too_large", "Request header fields too large");
  if (ec.category() == bhttp::make_error_code(bhttp::error::bad_target).category())
    return reject(400, "malformed_request", "Malformed HTTP request");
  close();
}

void session::on_body(beast::error_code ec) {
  if (ec)
    return handle_read_error(ec);
  stream_.expires_never();
  if (buffer_.capacity() > kept_buffer)
    buffer_.shrink_to_fit();
  dispatch_request();
}

void session::dispatch_request() {
  busy_ = true;
  auto& req = parser_->get();
  if (auto route = routed_.route()) {
    const auto started = std::chrono::steady_clock::now();
    if (auto r = route->target->answer_inline(settings_.options, settings_.tracker.draining))
      return answer_inline(route->method + " " + route->pattern, std::move(*r), started,
                           req.keep_alive());
  }
  http_call call;
  call.request.listener = settings_.listener;
  call.request.method = std::string{req.method_string()};
  call.request.target = std::string{req.target()};
  identify(call.request);
  if (auto key = req.find("Idempotency-Key"); key != req.end())
    call.request.idempotency_key = std::string{key->value()};
  if (auto route = routed_.route())
    if (auto name = route->target->proof_header(); !name.empty())
      if (auto proof = req.find({name.data(), name.size()}); proof != req.end())
        call.request.provider_proof = std::string{proof->value()};
  call.request.content_type = std::string{req[bhttp::field::content_type]};
  call.request.body = std::move(req.body());
  call.request.body_lease = std::move(body_lease_);
  call.request.request_id = request_id_;
  call.request.received = std::chrono::steady_clock::now();
  call.request.share = share();
  call.routed = std::move(routed_);
  bool keep_alive = req.keep_alive();
  call.reply = [self = shared_from_this(), keep_alive,
                lease = std::move(unseen_lease_)](outbound_response r) {
    net::post(self->stream_.get_executor(), [self, keep_alive, r = std::move(r)]() mutable {
      self->send(std::move(r), keep_alive);
    });
  };
  settings_.dispatch(std::move(call));
}

void session::answer_inline(std::string_view route, outbound_response r,
                            std::chrono::steady_clock::time_point started, bool keep_alive) {
  auto latency = std::chrono::steady_clock::now() - started;
  if (settings_.options.inline_metrics)
    settings_.options.inline_metrics->record(route, r.status, latency);
  log_access({.method = "GET",
              .route = route,
              .status = r.status,
              .latency = std::chrono::duration_cast<std::chrono::microseconds>(latency),
              .request_id = request_id_,
              .client = client_,
              .tenant_id = std::nullopt,
              .reason = {}});
  send(std::move(r), keep_alive);
}

void session::send(outbound_response r, bool keep_alive) {
  if (r.stream)
    return start_stream(std::move(r));
  if (r.download_body)
    return start_download(std::move(r));
  // Draining: each answer closes its connection, so the client's next
  // request goes to a node that stays.
  keep_alive = keep_alive && !closing_ && !settings_.tracker.draining;
  response_ = std::make_shared<bhttp::response<bhttp::string_body>>();
  auto& res = *response_;
  set_header(res, r);
  res.body() = std::move(r.body);
  res.keep_alive(keep_alive);
  res.prepare_payload();
  stream_.expires_after(settings_.options.read_timeout);
  bhttp::async_write(stream_, res,
                     [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
                       self->on_write(ec, keep_alive);
                     });
}

void session::set_header(bhttp::response_header<>& header, const outbound_response& r) const {
  header.version(11);
  header.result(r.status);
  header.set(bhttp::field::content_type, r.content_type);
  header.set("X-Request-Id", request_id_);
  for (const auto& [name, value] : r.headers)
    header.set(name, value);
}

void session::on_write(beast::error_code ec, bool keep_alive) {
  busy_ = false;
  response_.reset();
  if (ec || !keep_alive)
    return close();
  read_header();
}

void session::reject(unsigned status, std::string_view cause, std::string_view message,
                     bool retry_later, bool mid_body) {
  if (settings_.options.inline_metrics)
    settings_.options.inline_metrics->refused(status, cause);
  log_access({.method = "-",
              .route = "rejected",
              .status = status,
              .latency = std::nullopt,
              .request_id = request_id_.empty() ? std::string_view{"-"} : request_id_,
              .client = client_,
              .tenant_id = std::nullopt,
              .reason = message});
  outbound_response r;
  r.status = status;
  r.body = message_json(message);
  if (retry_later)
    r.headers.emplace_back("Retry-After", "1");
  answer_and_close(std::move(r), mid_body);
}

void session::answer_and_close(outbound_response r, bool mid_body) {
  if (request_id_.empty())
    request_id_ = request_id_for({});
  busy_ = true;
  response_ = std::make_shared<bhttp::response<bhttp::string_body>>();
  auto& res = *response_;
  set_header(res, r);
  res.body() = std::move(r.body);
  res.keep_alive(false);
  res.prepare_payload();
  if (!mid_body)
    stream_.expires_after(settings_.options.read_timeout);
  bhttp::async_write(stream_, res,
                     [self = shared_from_this(), mid_body](beast::error_code ec, std::size_t) {
                       if (ec)
                         return self->close();
                       self->linger_close(mid_body);
                     });
}

void session::linger_close(bool mid_body) {
  beast::error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  if (!mid_body)
    stream_.expires_after(max_drain_time);
  drain_ = std::make_unique<std::array<char, 65536>>();
  drain(0, mid_body ? request_body_limit(routed_.route(), settings_.options)
                    : std::max(max_drain_bytes, drain_most_));
}

void session::drain(std::size_t so_far, std::size_t most) {
  stream_.async_read_some(net::buffer(*drain_), [self = shared_from_this(), so_far,
                                                 most](beast::error_code ec, std::size_t n) {
    if (ec || so_far + n > most)
      return self->close();
    self->drain(so_far + n, most);
  });
}

void session::close() {
  if (beat_)
    beat_->cancel();
  beast::error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
  stream_.socket().close(ignored);
}

} // namespace vcs::http
