// One tenant's slow name server does not hold up another tenant's webhooks:
// outbound names are resolved on a pool of lookup threads shared fairly
// across tenants, each lookup within its request's deadline, and a name that
// timed out is answered from memory for a while. A name server on loopback
// that never answers for *.slow.test stands for the slow one.

#include "domain/global_id.hpp"
#include "eventually.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"
#include "storage/webhook_repository.hpp"
#include "webhook_receiver.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

namespace vcs::test {
namespace {

using namespace std::chrono_literals;

// A DNS server on 127.0.0.77:53 (UDP): names under fast.test are 127.0.0.1
// (A; no AAAA), names under slow.test never get an answer.
class fake_name_server {
public:
  fake_name_server() {
    fd_ = ::socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_port = htons(53);
    ::inet_pton(AF_INET, "127.0.0.77", &at.sin_addr);
    bound_ = fd_ >= 0 && ::bind(fd_, reinterpret_cast<sockaddr*>(&at), sizeof at) == 0;
    if (bound_)
      thread_ = std::thread([this] { serve(); });
  }
  ~fake_name_server() {
    stop_ = true;
    if (thread_.joinable())
      thread_.join();
    if (fd_ >= 0)
      ::close(fd_);
  }
  bool bound() const noexcept { return bound_; }
  int slow_queries() const noexcept { return slow_queries_; }

private:
  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0)
        continue;
      unsigned char q[512];
      sockaddr_in from{};
      socklen_t from_len = sizeof from;
      const auto n = ::recvfrom(fd_, q, sizeof q, 0, reinterpret_cast<sockaddr*>(&from), &from_len);
      if (n < 17)
        continue;
      // The question: labels from byte 12, then type and class.
      std::string name;
      std::size_t at = 12;
      while (at < static_cast<std::size_t>(n) && q[at] != 0) {
        name += std::string(reinterpret_cast<const char*>(q + at + 1), q[at]) + ".";
        at += q[at] + 1u;
      }
      const std::size_t question_end = at + 5;
      if (question_end > static_cast<std::size_t>(n))
        continue;
      const unsigned type = q[at + 1] << 8 | q[at + 2];
      if (name.ends_with("slow.test.")) {
        ++slow_queries_;
        continue; // never answered
      }
      const bool known = name.ends_with("fast.test.");
      const bool answer = known && type == 1;
      std::string r(reinterpret_cast<const char*>(q), question_end);
      r[2] = static_cast<char>(0x81);
      r[3] = static_cast<char>(known ? 0x80 : 0x83); // NOERROR or NXDOMAIN
      r[4] = 0, r[5] = 1;                            // one question
      r[6] = 0, r[7] = answer ? 1 : 0;
      r[8] = r[9] = r[10] = r[11] = 0;
      if (answer)
        r += std::string{"\xc0\x0c\x00\x01\x00\x01\x00\x00\x00\x00\x00\x04\x7f\x00\x00\x01", 16};
      ::sendto(fd_, r.data(), r.size(), 0, reinterpret_cast<sockaddr*>(&from), from_len);
    }
  }

  int fd_ = -1;
  bool bound_ = false;
  std::atomic<bool> stop_{false};
  std::atomic<int> slow_queries_{0};
  std::thread thread_;
};

// /etc/resolv.conf pointed at the fake server while the test runs (glibc
// reads it again when it changes).
class resolv_conf {
public:
  resolv_conf() {
    std::ifstream in{path};
    std::stringstream all;
    all << in.rdbuf();
    original_ = all.str();
    ok_ = write("nameserver 127.0.0.77\noptions timeout:2 attempts:1\n");
  }
  ~resolv_conf() { write(original_); }
  bool ok() const noexcept { return ok_; }

private:
  static constexpr const char* path = "/etc/resolv.conf";
  bool write(const std::string& text) {
    std::ofstream out{path, std::ios::trunc};
    out << text;
    return static_cast<bool>(out.flush());
  }
  std::string original_;
  bool ok_ = false;
};

TEST(outbound_lookup_test, a_slow_name_server_holds_up_no_other_tenants_webhooks) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "needs root for port 53 and /etc/resolv.conf (CI runs as root)";
  fake_name_server dns;
  ASSERT_TRUE(dns.bound()) << "127.0.0.77:53 is taken";
  resolv_conf conf;
  ASSERT_TRUE(conf.ok());
  webhook_receiver receiver;
  service_process node{{{"VCS_OUTBOUND_ALLOW", "127.0.0.1/32"},
                        {"VCS_WEBHOOK_INTERVAL_MS", "50"},
                        {"VCS_WEBHOOK_TIMEOUT_MS", "5000"}}};
  http_client op_client{"127.0.0.1", node.operator_port()};
  auto tenant = [&](const char* name) {
    auto created = parse(op_client
                             .request("POST", "/admin/v1/tenants",
                                      std::string{R"({"name":")"} + name + R"(","plan":"PRO"})",
                                      bearer(node.operator_token()))
                             .body);
    const auto id = str(created, "tenant_id");
    EXPECT_EQ(op_client
                  .request("POST", "/admin/v1/tenants/" + id + "/webhook-secret", {},
                           bearer(node.operator_token()))
                  .status,
              201u);
    return *domain::decode_global_id(domain::entity::tenant, id);
  };
  const auto slow = tenant("slow dns"), fast = tenant("fast dns");
  const auto port = std::to_string(receiver.port());
  {
    auto sql = storage::open_session(database_url());
    // The slow tenant's deliveries come first in the outbox.
    for (int i = 0; i < 20; ++i)
      storage::enqueue_webhook(*sql, slow, std::nullopt,
                               "http://h" + std::to_string(i) + ".slow.test:" + port + "/hook",
                               "evt-slow-" + std::to_string(slow) + "-" + std::to_string(i),
                               "test.event", R"({"id":"x"})");
    for (int i = 0; i < 3; ++i)
      storage::enqueue_webhook(*sql, fast, std::nullopt, "http://hook.fast.test:" + port + "/hook",
                               "evt-fast-" + std::to_string(fast) + "-" + std::to_string(i),
                               "test.event", R"({"id":"y"})");
  }
  const auto started = std::chrono::steady_clock::now();
  ASSERT_TRUE(eventually([&] { return receiver.received().size() >= 3; }, 30s))
      << "the other tenant's webhooks were not delivered";
  // A single lookup thread took 2 s for each slow name in turn (40 s for
  // these); the pool answers the other tenant's names at once.
  EXPECT_LT(std::chrono::steady_clock::now() - started, 6s);
  EXPECT_GT(dns.slow_queries(), 0);
  // The slow tenant's deliveries fail for their names and are retried later.
  auto sql = storage::open_session(database_url());
  std::string error;
  ASSERT_TRUE(eventually(
      [&] {
        soci::indicator ind{};
        *sql << "SELECT max(last_error) FROM webhook_deliveries WHERE tenant_id = :t",
            soci::use(slow), soci::into(error, ind);
        return ind == soci::i_ok;
      },
      30s));
  EXPECT_NE(error.find("name lookup"), std::string::npos) << error;
}

} // namespace
} // namespace vcs::test
