// One tenant's slow webhook receiver holds at most its own share of a node's
// senders: a tenant whose receiver never answers has at most
// webhook-tenant-in-flight deliveries open at once, and another tenant's
// webhooks go out at once beside them.

#include "domain/global_id.hpp"
#include "eventually.hpp"
#include "http_client.hpp"
#include "json_helpers.hpp"
#include "scratch_database.hpp"
#include "service_process.hpp"
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
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace vcs::test {
namespace {

using namespace std::chrono_literals;

// A receiver that accepts connections and never answers, counting those
// whose request is for `path` (other tests' deliveries still pending may
// reach the same port).
class tarpit {
public:
  explicit tarpit(std::string path) : path_(std::move(path)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    ::inet_pton(AF_INET, "127.0.0.1", &at.sin_addr);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&at), sizeof at);
    socklen_t len = sizeof at;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&at), &len);
    port_ = ntohs(at.sin_port);
    ::listen(fd_, 1024);
    thread_ = std::thread([this] {
      while (!stop_) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0)
          continue;
        if (int c = ::accept(fd_, nullptr, nullptr); c >= 0) {
          held_.push_back(c);
          pollfd in{c, POLLIN, 0};
          char line[256];
          if (::poll(&in, 1, 1000) > 0)
            if (auto n = ::recv(c, line, sizeof line, 0);
                n > 0 && std::string_view{line, static_cast<std::size_t>(n)}.find(path_) !=
                             std::string_view::npos)
              ++accepted_;
        }
      }
    });
  }
  ~tarpit() {
    stop_ = true;
    thread_.join();
    for (int c : held_)
      ::close(c);
    ::close(fd_);
  }
  unsigned short port() const noexcept { return port_; }
  int accepted() const noexcept { return accepted_; }

private:
  std::string path_;
  int fd_ = -1;
  unsigned short port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::vector<int> held_;
  std::thread thread_;
};

TEST(webhook_share_test, a_tenant_whose_receiver_hangs_holds_only_its_share_of_the_senders) {
  tarpit hanging{"/hook-" + std::to_string(::getpid())};
  webhook_receiver receiver;
  // A database of its own: other tests' nodes send the shared database's
  // deliveries too.
  const scratch_database db{"vcs_webhook_share_test"};
  service_process node{{{"VCS_DATABASE_URL", db.url()},
                        {"VCS_OUTBOUND_ALLOW", "127.0.0.1/32"},
                        {"VCS_WEBHOOK_INTERVAL_MS", "50"},
                        {"VCS_WEBHOOK_TIMEOUT_MS", "4000"},
                        {"VCS_WEBHOOK_TENANT_IN_FLIGHT", "8"}}};
  http_client op{"127.0.0.1", node.operator_port()};
  auto tenant = [&](const char* name) {
    auto created = parse(op.request("POST", "/admin/v1/tenants",
                                    std::string{R"({"name":")"} + name + R"(","plan":"PRO"})",
                                    bearer(node.operator_token()))
                             .body);
    const auto id = str(created, "tenant_id");
    EXPECT_EQ(op.request("POST", "/admin/v1/tenants/" + id + "/webhook-secret", {},
                         bearer(node.operator_token()))
                  .status,
              201u);
    return *domain::decode_global_id(domain::entity::tenant, id);
  };
  const auto slow = tenant("hanging receiver"), fast = tenant("quick receiver");
  {
    auto sql = db.open();
    // More than the node's 64 senders, ahead of the other tenant's.
    const auto hook = "http://127.0.0.1:" + std::to_string(hanging.port()) + "/hook-" +
                      std::to_string(::getpid());
    for (int i = 0; i < 80; ++i)
      storage::enqueue_webhook(*sql, slow, std::nullopt, hook,
                               "evt-hang-" + std::to_string(slow) + "-" + std::to_string(i),
                               "test.event", R"({"id":"x"})");
    for (int i = 0; i < 3; ++i)
      storage::enqueue_webhook(*sql, fast, std::nullopt, receiver.url(),
                               "evt-quick-" + std::to_string(fast) + "-" + std::to_string(i),
                               "test.event", R"({"id":"y"})");
  }
  // Before the hanging sends time out (4 s), the other tenant's are in.
  EXPECT_TRUE(eventually([&] { return receiver.received().size() >= 3; }, 2500ms))
      << "the other tenant's webhooks waited behind the hanging receiver";
  EXPECT_TRUE(eventually([&] { return hanging.accepted() >= 8; }, 2s));
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(hanging.accepted(), 8) << "more than the tenant's share was sent at once";
  EXPECT_EQ(node.terminate(), 0);
}

} // namespace
} // namespace vcs::test
