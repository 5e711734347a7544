// The static-response ceiling of this machine for the health scenario: a
// minimal Beast HTTP/1.1 server (keep-alive, one io_context run by N
// threads) answering {"status":"ok"} to every request, with no routing,
// logging, metrics or actors. benchmarks/run measures it in the same run.
//
// Usage: static_server PORT [THREADS]

#include <utility> // before Asio under C++20 (see src/outbound/beast.hpp)

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <thread>
#include <vector>

namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

class session : public std::enable_shared_from_this<session> {
public:
  explicit session(tcp::socket s) : stream_(std::move(s)) {}
  void start() { read(); }

private:
  void read() {
    req_ = {};
    http::async_read(stream_, buffer_, req_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (!ec)
                         self->write();
                     });
  }

  void write() {
    res_ = {};
    res_.result(http::status::ok);
    res_.version(11);
    res_.set(http::field::content_type, "application/json");
    res_.body() = R"({"status":"ok"})";
    res_.keep_alive(req_.keep_alive());
    res_.prepare_payload();
    http::async_write(stream_, res_,
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        if (!ec && self->res_.keep_alive())
                          self->read();
                      });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> req_;
  http::response<http::string_body> res_;
};

void accept(tcp::acceptor& acceptor) {
  acceptor.async_accept([&acceptor](beast::error_code ec, tcp::socket s) {
    if (!ec)
      std::make_shared<session>(std::move(s))->start();
    accept(acceptor);
  });
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: static_server PORT [THREADS]\n";
    return 2;
  }
  auto port = static_cast<unsigned short>(std::atoi(argv[1]));
  int threads = argc > 2 ? std::atoi(argv[2]) : 2;
  net::io_context ioc{threads};
  tcp::acceptor acceptor{ioc, {net::ip::make_address("127.0.0.1"), port}};
  accept(acceptor);
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i)
    pool.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : pool)
    t.join();
}
