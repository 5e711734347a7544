// Behind a load balancer (trusted-proxies): the client a trusted proxy
// names, by a PROXY protocol v2 header or by X-Forwarded-For, is the one the
// per-client connection limit, the sign-in throttle and the access log
// count. Anyone else's word on who it is is ignored.

#include "eventually.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vcs::test {
namespace {

// A PROXY protocol v2 header for a TCP over IPv4 connection from `source`.
std::string proxy_header(std::array<std::uint8_t, 4> source) {
  std::string out{"\r\n\r\n\0\r\nQUIT\n", 12};
  out += std::string{"\x21\x11\x00\x0c", 4};
  out.append(reinterpret_cast<const char*>(source.data()), 4);
  out += std::string{"\x7f\x00\x00\x01\x9c\x40\x1f\x90", 8};
  return out;
}

class proxy_test : public service_test {
protected:
  // The sign-in throttle's counts are shared with the other tests' sign-ins.
  void SetUp() override { *sql << "DELETE FROM sign_in_addresses"; }
  void TearDown() override { *sql << "DELETE FROM sign_in_addresses"; }

  // A failed sign-in (no such account) through `node`, its proxy saying the
  // request comes from `forwarded_for`.
  static unsigned failed_sign_in(const service_process& node, const std::string& forwarded_for) {
    const auto host = "127.0.0.1:" + std::to_string(node.public_port());
    http_client c{"127.0.0.1", node.public_port()};
    // Each time another account name, so only the address's count locks.
    static int n = 0;
    const auto email = "nobody" + std::to_string(++n) + "-" + std::to_string(::getpid()) +
                       "@example.com";
    return c
        .request("POST", "/api/v2/session",
                 R"({"email":")" + email + R"(","password":"any password"})",
                 {{"Host", host},
                  {"Origin", "http://" + host},
                  {"Content-Type", "application/json"},
                  {"X-Forwarded-For", forwarded_for}})
        .status;
  }

  std::unique_ptr<soci::session> sql = storage::open_session(database_url());
};

TEST_F(proxy_test, a_proxy_header_names_the_client_its_connection_limit_counts) {
  service_process node{
      {{"VCS_TRUSTED_PROXIES", "127.0.0.1"}, {"VCS_MAX_CONNECTIONS_PER_CLIENT", "2"}}};
  auto via_proxy = [&](std::array<std::uint8_t, 4> source) {
    auto c = std::make_unique<http_client>("127.0.0.1", node.public_port());
    c->send_raw(proxy_header(source));
    return c;
  };
  std::vector<std::unique_ptr<http_client>> held;
  for (int i = 0; i < 2; ++i) {
    held.push_back(via_proxy({203, 0, 113, 7}));
    ASSERT_EQ(held.back()->get("/healthz").status, 200u);
  }
  auto refused = via_proxy({203, 0, 113, 7})->get("/healthz");
  EXPECT_EQ(refused.status, 503u);
  EXPECT_EQ(str(parse(refused.body), "message"),
            "Too many connections from this client; try again shortly");
  // Another client through the same proxy, and the proxy's own connections
  // (health checks, no header), have room.
  EXPECT_EQ(via_proxy({203, 0, 113, 8})->get("/healthz").status, 200u);
  std::vector<std::unique_ptr<http_client>> own;
  for (int i = 0; i < 3; ++i) {
    own.push_back(std::make_unique<http_client>("127.0.0.1", node.public_port()));
    EXPECT_EQ(own.back()->get("/healthz").status, 200u);
  }
  EXPECT_TRUE(eventually(
      [&] { return node.log_contents().find("client=203.0.113.8") != std::string::npos; },
      std::chrono::seconds(5)))
      << "the access log names the client the header carried";

  // A broken header is refused, and the connection closed.
  http_client broken{"127.0.0.1", node.public_port()};
  broken.send_raw(std::string{"\r\n\r\n\0\r\nQUIT\n", 12} + std::string{"\x21\x11\x00\x04", 4} +
                  "abcd");
  auto answer = broken.read_response();
  EXPECT_EQ(answer.status, 400u);
  EXPECT_EQ(str(parse(answer.body), "message"), "Malformed PROXY protocol header");
  EXPECT_TRUE(broken.closed_by_peer());
  EXPECT_EQ(node.terminate(), 0);
}

TEST_F(proxy_test, a_proxy_header_from_an_untrusted_peer_is_not_read) {
  service_process node{{{"VCS_TRUSTED_PROXIES", "127.0.0.2"}}};
  http_client c{"127.0.0.1", node.public_port()};
  c.send_raw(proxy_header({203, 0, 113, 7}) + "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n");
  EXPECT_EQ(c.read_response().status, 400u);
  EXPECT_EQ(node.terminate(), 0);
}

TEST_F(proxy_test, the_sign_in_throttle_counts_the_client_a_trusted_proxy_forwards) {
  service_process node{{{"VCS_TRUSTED_PROXIES", "127.0.0.1"}}};
  // At most 20 failures from one address in 15 minutes.
  for (int i = 0; i < 20; ++i)
    ASSERT_EQ(failed_sign_in(node, "198.51.100.1"), 401u) << i;
  EXPECT_EQ(failed_sign_in(node, "198.51.100.1"), 429u);
  // What the client itself put in the header does not move it elsewhere:
  // the proxy appended the address it saw.
  EXPECT_EQ(failed_sign_in(node, "198.51.100.9, 198.51.100.1"), 429u);
  // Another client behind the same proxy is not held up.
  EXPECT_EQ(failed_sign_in(node, "198.51.100.2"), 401u);
  EXPECT_EQ(node.terminate(), 0);
}

TEST_F(proxy_test, an_untrusted_peers_forwarded_for_is_ignored) {
  service_process node{{{"VCS_TRUSTED_PROXIES", "127.0.0.2"}}};
  for (int i = 0; i < 20; ++i)
    ASSERT_EQ(failed_sign_in(node, "198.51.100." + std::to_string(i + 1)), 401u) << i;
  EXPECT_EQ(failed_sign_in(node, "198.51.100.99"), 429u) << "counted against 127.0.0.1";
  EXPECT_EQ(node.terminate(), 0);
}

} // namespace
} // namespace vcs::test
