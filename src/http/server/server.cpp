#include "http/server/server.hpp"

#include "http/server/beast.hpp"
#include "http/server/session.hpp"

#include <spdlog/spdlog.h>

#include <future>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

namespace vcs::http {

namespace {

tcp::endpoint parse_endpoint(const std::string& host_port) {
  auto colon = host_port.rfind(':');
  if (colon == std::string::npos)
    throw std::invalid_argument("listen address must be host:port: " + host_port);
  auto host = host_port.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  int port = std::stoi(host_port.substr(colon + 1));
  if (port < 0 || port > 65535)
    throw std::invalid_argument("port out of range: " + host_port);
  return {net::ip::make_address(host), static_cast<unsigned short>(port)};
}

// Accepts connections for one listener and starts a session for each.
class listener : public std::enable_shared_from_this<listener> {
public:
  listener(net::io_context& ioc, const tcp::endpoint& at, session_settings settings)
      : ioc_(ioc), acceptor_(net::make_strand(ioc)), retry_(acceptor_.get_executor()),
        settings_(std::move(settings)) {
    acceptor_.open(at.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(at);
    acceptor_.listen(net::socket_base::max_listen_connections);
  }

  void start() { accept(); }

  void stop() {
    net::post(acceptor_.get_executor(), [self = shared_from_this()] {
      beast::error_code ignored;
      self->acceptor_.close(ignored);
    });
  }

  unsigned short port() const { return acceptor_.local_endpoint().port(); }

private:
  void accept() {
    acceptor_.async_accept(net::make_strand(ioc_), [self = shared_from_this()](beast::error_code ec,
                                                                               tcp::socket socket) {
      if (ec) {
        if (ec == net::error::operation_aborted || !self->acceptor_.is_open())
          return;
        // Out of file descriptors, say: the pending connection stays queued
        // and accepting at once would fail again, so pause briefly.
        spdlog::warn("accept failed: {}", ec.message());
        self->retry_.expires_after(std::chrono::milliseconds(100));
        self->retry_.async_wait([self](beast::error_code) { self->accept(); });
        return;
      }
      self->admit(std::move(socket));
      self->accept();
    });
  }

  void admit(tcp::socket socket) {
    beast::error_code ec;
    const auto peer = socket.remote_endpoint(ec).address();
    if (ec)
      return;
    socket.set_option(tcp::no_delay(true), ec);
    const auto client = peer.is_v4()
                            ? domain::ip_address_from_bytes(peer.to_v4().to_bytes().data(), 4)
                            : domain::ip_address_from_bytes(peer.to_v6().to_bytes().data(), 16);
    std::make_shared<session>(std::move(socket), settings_, client)->start();
  }

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  net::steady_timer retry_;
  session_settings settings_;
};

} // namespace

struct server::impl {
  server_options options;
  std::shared_ptr<const route_tables> routes;
  dispatch_fn dispatch;
  net::io_context ioc;
  session_tracker tracker;
  std::shared_ptr<listener> public_listener;
  std::shared_ptr<listener> operator_listener;
  std::vector<std::thread> threads;
  // Installed before the I/O threads run, so an early SIGTERM is not lost.
  std::optional<net::signal_set> signals;
  std::promise<int> signalled;
  std::shared_ptr<body_budget> large_bodies;
  // While a request is inside the actors no I/O is pending; without this
  // guard run() would return once the acceptors close at shutdown and the
  // reply could never be written.
  net::executor_work_guard<net::io_context::executor_type> keep_running;

  impl(server_options o, std::shared_ptr<const route_tables> r, dispatch_fn d)
      : options(std::move(o)), routes(std::move(r)), dispatch(std::move(d)),
        ioc(static_cast<int>(std::max<std::size_t>(1, options.io_threads))),
        large_bodies(std::make_shared<body_budget>(options.large_body_memory)),
        keep_running(net::make_work_guard(ioc)) {}
};

server::server(server_options options, std::shared_ptr<const route_tables> routes,
               dispatch_fn dispatch)
    : impl_(std::make_unique<impl>(std::move(options), std::move(routes), std::move(dispatch))) {}

server::~server() {
  impl_->ioc.stop();
  for (auto& t : impl_->threads)
    if (t.joinable())
      t.join();
}

void server::start() {
  auto& m = *impl_;
  // The operator listener keeps its own budget, so a flood of the public
  // one leaves operators and health checks a way in.
  m.public_listener = std::make_shared<listener>(
      m.ioc, parse_endpoint(m.options.public_listen),
      session_settings{listener_kind::public_api, m.options, m.dispatch, m.tracker,
                       std::make_shared<connection_limits>(m.options.max_connections,
                                                           m.options.max_connections_per_client),
                       m.routes, m.large_bodies,
                       std::make_shared<unseen_keys>(m.options.unseen_keys_per_client)});
  m.operator_listener = std::make_shared<listener>(
      m.ioc, parse_endpoint(m.options.operator_listen),
      session_settings{listener_kind::operator_api, m.options, m.dispatch, m.tracker,
                       std::make_shared<connection_limits>(m.options.max_connections, 0), m.routes,
                       m.large_bodies, nullptr});
  m.signals.emplace(m.ioc, SIGINT, SIGTERM);
  m.signals->async_wait(
      [&m](beast::error_code ec, int sig) { m.signalled.set_value(ec ? 0 : sig); });
  m.public_listener->start();
  m.operator_listener->start();
  auto n = std::max<std::size_t>(1, m.options.io_threads);
  for (std::size_t i = 0; i < n; ++i)
    m.threads.emplace_back([&m] { m.ioc.run(); });
}

int server::wait_for_signal() {
  return impl_->signalled.get_future().get();
}

void server::announce_draining() {
  impl_->tracker.draining = true;
}

void server::drain() {
  auto& m = *impl_;
  spdlog::info("draining connections");
  m.tracker.draining = true;
  m.public_listener->stop();
  m.operator_listener->stop();
  for (auto& s : m.tracker.snapshot())
    s->shutdown();
  auto deadline = std::chrono::steady_clock::now() + m.options.shutdown_timeout;
  if (!m.tracker.wait_empty(deadline))
    spdlog::warn("shutdown timeout: closing connections still in progress");
  m.ioc.stop();
  for (auto& t : m.threads)
    t.join();
  m.threads.clear();
}

unsigned short server::public_port() const {
  return impl_->public_listener->port();
}

unsigned short server::operator_port() const {
  return impl_->operator_listener->port();
}

} // namespace vcs::http
