#include "outbound/outbound_client.hpp"

#include "domain/control_characters.hpp"
#include "domain/url.hpp"
#include "outbound/beast.hpp"
#include "outbound/name_resolver.hpp"

#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>

#include <algorithm>
#include <future>
#include <optional>
#include <thread>
#include <vector>

namespace vcs::outbound {

namespace {

namespace ssl = boost::asio::ssl;

constexpr const char* not_an_http_url =
    "not an http:// or https:// URL with a plain host name or address";

// Why none of `endpoints` may be connected to: the rule the first refused
// address breaks (neither the address nor the name is echoed).
std::optional<std::string> refused_address(const domain::outbound_policy& policy,
                                           const std::vector<tcp::endpoint>& endpoints) {
  for (const auto& endpoint : endpoints) {
    const auto address = endpoint.address();
    // IPv4 as IPv4-mapped IPv6, the domain's one form for both.
    const auto bytes =
        address.is_v4() ? net::ip::make_address_v6(net::ip::v4_mapped, address.to_v4()).to_bytes()
                        : address.to_v6().to_bytes();
    if (auto why = policy.refuse(domain::ip_address_from_bytes(bytes.data(), bytes.size())))
      return "the host name resolves to " + *why;
  }
  return std::nullopt;
}

// One request: resolve, connect, (handshake,) write, read; every step under
// the request's deadline. Stream is beast::tcp_stream or an ssl_stream of it.
template <class Stream> class exchange : public std::enable_shared_from_this<exchange<Stream>> {
public:
  using done_fn = std::function<void(actors::outbound_result)>;

  template <class... Args>
  exchange(net::io_context& io, const domain::outbound_policy& policy, name_resolver& names,
           domain::http_url url, actors::outbound_post req, done_fn done, Args&&... stream_args)
      : policy_(policy), names_(names), strand_(net::make_strand(io)),
        stream_(strand_, std::forward<Args>(stream_args)...), url_(std::move(url)),
        post_(std::move(req)), done_(std::move(done)) {}

  void start() {
    request_.method(post_.get ? bhttp::verb::get : bhttp::verb::post);
    request_.target(url_.target);
    request_.version(11);
    // The host as written, IPv6 in brackets again; the port when not the
    // scheme's.
    std::string host = url_.host.find(':') == std::string::npos ? url_.host : "[" + url_.host + "]";
    if (url_.port != (url_.tls ? 443 : 80))
      host += ":" + std::to_string(url_.port);
    request_.set(bhttp::field::host, host);
    for (const auto& [name, value] : post_.headers)
      request_.set(name, value);
    request_.set(bhttp::field::connection, "close");
    request_.body() = std::move(post_.body);
    request_.prepare_payload();
    if constexpr (is_tls) {
      if (!SSL_set_tlsext_host_name(stream_.native_handle(), url_.host.c_str()))
        return fail("TLS: cannot set the server name");
      stream_.set_verify_callback(ssl::host_name_verification(url_.host));
    }
    lowest().expires_after(post_.timeout);
    // Within the request's own deadline, on the lookup pool's share of the
    // tenant.
    names_.resolve(post_.tenant_id, url_.host, url_.port,
                   std::chrono::steady_clock::now() + post_.timeout,
                   [self = this->shared_from_this()](name_resolver::answer a) {
                     net::post(self->strand_, [self, a = std::move(a)]() mutable {
                       self->on_resolve(std::move(a));
                     });
                   });
  }

private:
  static constexpr bool is_tls = !std::is_same_v<Stream, beast::tcp_stream>;

  beast::tcp_stream& lowest() {
    if constexpr (is_tls)
      return beast::get_lowest_layer(stream_);
    else
      return stream_;
  }

  void on_resolve(name_resolver::answer found) {
    if (!found.error.empty())
      return fail(std::move(found.error));
    if (auto why = refused_address(policy_, found.endpoints))
      return fail("refused: " + *why);
    endpoints_ = std::move(found.endpoints);
    lowest().async_connect(
        endpoints_, [self = this->shared_from_this()](beast::error_code ec, const tcp::endpoint&) {
          self->on_connect(ec);
        });
  }

  void on_connect(beast::error_code ec) {
    if (ec)
      return fail("connect: " + ec.message());
    if constexpr (is_tls) {
      stream_.async_handshake(ssl::stream_base::client,
                              [self = this->shared_from_this()](beast::error_code ec) {
                                if (ec)
                                  return self->fail("TLS handshake: " + ec.message());
                                self->write();
                              });
    } else {
      write();
    }
  }

  void write() {
    bhttp::async_write(stream_, request_,
                       [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                         if (ec)
                           return self->fail("write: " + ec.message());
                         self->read();
                       });
  }

  void read() {
    parser_.body_limit(post_.response_limit);
    bhttp::async_read(stream_, buffer_, parser_,
                      [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                        // A body over the limit still has its status.
                        if (ec && ec != bhttp::error::body_limit)
                          return self->fail("read: " + ec.message());
                        actors::outbound_result r;
                        r.status = static_cast<int>(self->parser_.get().result_int());
                        r.body = std::move(self->parser_.get().body());
                        r.truncated = ec == bhttp::error::body_limit;
                        self->complete(std::move(r));
                      });
  }

  void fail(std::string why) {
    actors::outbound_result r;
    r.error = std::move(why);
    complete(std::move(r));
  }

  void complete(actors::outbound_result r) {
    beast::error_code ignored;
    lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
    if (done_)
      std::exchange(done_, nullptr)(std::move(r));
  }

  const domain::outbound_policy& policy_;
  name_resolver& names_;
  net::strand<net::io_context::executor_type> strand_;
  Stream stream_;
  std::vector<tcp::endpoint> endpoints_;
  domain::http_url url_;
  actors::outbound_post post_;
  done_fn done_;
  bhttp::request<bhttp::string_body> request_;
  beast::flat_buffer buffer_;
  bhttp::response_parser<bhttp::string_body> parser_;
};

} // namespace

struct outbound_client::impl {
  impl(domain::outbound_policy p, name_resolver_settings lookups)
      : policy(std::move(p)), names(io, lookups) {}

  domain::outbound_policy policy;
  net::io_context io;
  net::executor_work_guard<net::io_context::executor_type> work{io.get_executor()};
  name_resolver names;
  ssl::context tls{ssl::context::tls_client};
  std::vector<std::thread> threads;
};

outbound_client::outbound_client(domain::outbound_policy policy, std::size_t threads,
                                 name_resolver_settings lookups)
    : impl_(std::make_unique<impl>(std::move(policy), lookups)) {
  impl_->tls.set_default_verify_paths();
  impl_->tls.set_verify_mode(ssl::verify_peer);
  for (std::size_t i = 0; i < std::max<std::size_t>(1, threads); ++i)
    impl_->threads.emplace_back([io = &impl_->io] { io->run(); });
}

outbound_client::~outbound_client() {
  stop();
}

void outbound_client::stop() {
  impl_->work.reset();
  impl_->io.stop();
  for (auto& t : impl_->threads)
    if (t.joinable())
      t.join();
  impl_->threads.clear();
}

void outbound_client::post(actors::outbound_post request,
                           std::function<void(actors::outbound_result)> done) {
  auto url = domain::parse_http_url(request.url);
  std::optional<std::string> why;
  if (!url)
    why = not_an_http_url;
  else if (auto refused = impl_->policy.refuse_host(url->host))
    why = "refused: " + *refused;
  else if (std::any_of(request.headers.begin(), request.headers.end(), [](const auto& h) {
             return domain::has_control_character(h.first) ||
                    domain::has_control_character(h.second);
           }))
    why = "refused: a header holds a control character";
  if (why) {
    actors::outbound_result r;
    r.error = std::move(*why);
    done(std::move(r));
    return;
  }
  if (url->tls)
    std::make_shared<exchange<beast::ssl_stream<beast::tcp_stream>>>(
        impl_->io, impl_->policy, impl_->names, std::move(*url), std::move(request),
        std::move(done), impl_->tls)
        ->start();
  else
    std::make_shared<exchange<beast::tcp_stream>>(impl_->io, impl_->policy, impl_->names,
                                                  std::move(*url), std::move(request),
                                                  std::move(done))
        ->start();
}

std::optional<std::string> outbound_client::refusal(std::int64_t tenant_id, const std::string& url,
                                                    std::chrono::milliseconds limit) const {
  auto parsed = domain::parse_http_url(url);
  if (!parsed)
    return not_an_http_url;
  if (auto why = impl_->policy.refuse_host(parsed->host))
    return why;
  if (domain::parse_ip_literal(parsed->host))
    return std::nullopt; // an address that passed needs no resolving
  // A name that does not resolve in time passes: each delivery checks again.
  auto answer = std::make_shared<std::promise<std::optional<std::string>>>();
  auto result = answer->get_future();
  impl_->names.resolve(
      tenant_id, parsed->host, parsed->port, std::chrono::steady_clock::now() + limit,
      [this, answer](name_resolver::answer found) {
        answer->set_value(found.error.empty() ? refused_address(impl_->policy, found.endpoints)
                                              : std::nullopt);
      });
  // The resolver answers by the deadline; the margin covers a loop that has
  // stopped (shutdown).
  if (result.wait_for(limit + std::chrono::seconds(1)) != std::future_status::ready)
    return std::nullopt;
  return result.get();
}

actors::http_poster outbound_client::poster() {
  return [this](actors::outbound_post request, std::function<void(actors::outbound_result)> done) {
    post(std::move(request), std::move(done));
  };
}

} // namespace vcs::outbound
