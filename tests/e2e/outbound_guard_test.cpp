// Outbound requests cannot reach inside: a campaign webhook_url naming an
// internal address in any spelling is refused when written (400 naming the
// field), and a name that resolved to an allowed address when written but
// to an internal one later is refused again at delivery (DNS rebinding),
// before any connection.

#include "domain/global_id.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"
#include "storage/webhook_repository.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace vcs::test {
namespace {

using namespace std::chrono_literals;

class outbound_guard_test : public service_test {
protected:
  void SetUp() override { t = create_tenant(); }

  http_response create_campaign(const std::string& webhook_url) {
    return pub("POST", "/api/v2/voice-campaigns", t.key,
               R"({"name":"hooks","webhook_url":")" + webhook_url + "\"}");
  }

  tenant_info t;
};

TEST_F(outbound_guard_test, internal_webhook_urls_are_refused_in_every_spelling) {
  for (const std::string url : {"http://127.0.0.1:8081/admin/v1/tenants",
                                "http://localhost:8081/x",
                                "http://api.localhost/x",
                                "http://[::ffff:127.0.0.1]:8081/x",
                                "http://[::1]/x",
                                "http://169.254.169.254/latest/meta-data",
                                "http://10.0.0.5/x",
                                "http://2130706433/x",
                                "http://0x7f000001/x",
                                "http://127.1/x",
                                "http://0177.0.0.1/x",
                                "http://0/x",
                                "http://0.0.0.0/x",
                                "http://[::]/x",
                                "http://[fe80::1]/x",
                                "http://[fd12::1]/x",
                                "http://100.64.0.1/x",
                                "http://224.0.0.1/x",
                                "http://192.168.1.1/x",
                                "http://172.16.0.1/x",
                                "http://[64:ff9b::7f00:1]/x"}) {
    auto r = create_campaign(url);
    ASSERT_EQ(r.status, 400u) << url << ": " << r.body;
    auto d = parse(r.body);
    ASSERT_TRUE(d["errors"].HasMember("webhook_url")) << url << ": " << r.body;
    EXPECT_NE(std::string{d["errors"]["webhook_url"][0].GetString()}.find("internal address"),
              std::string::npos)
        << url << ": " << r.body;
  }
  // Trailing-dot spellings are not valid URLs here at all.
  for (const std::string url : {"http://LOCALHOST./x", "https://127.0.0.1.:443/x"}) {
    auto r = create_campaign(url);
    ASSERT_EQ(r.status, 400u) << url << ": " << r.body;
    EXPECT_TRUE(parse(r.body)["errors"].HasMember("webhook_url")) << url << ": " << r.body;
  }
  // The same rule on an update, and nothing was stored.
  auto created = create_campaign("https://hooks.example.com/calls");
  ASSERT_EQ(created.status, 201u) << created.body;
  auto id = str(parse(created.body)["data"], "campaign_id");
  auto r = pub("PATCH", "/api/v2/voice-campaigns/" + id, t.key,
               R"({"webhook_url":"http://0x7f000001:8081/admin"})");
  EXPECT_EQ(r.status, 400u) << r.body;
  EXPECT_EQ(
      str(parse(pub("GET", "/api/v2/voice-campaigns/" + id, t.key).body)["data"], "webhook_url"),
      "https://hooks.example.com/calls");
}

// One URL reader: the scheme in any case is the same URL where it is
// written, where its host is checked and where it is sent to.
TEST_F(outbound_guard_test, the_scheme_is_read_in_any_case) {
  auto accepted = create_campaign("HTTPS://hooks.example.com/calls");
  EXPECT_EQ(accepted.status, 201u) << accepted.body;
  auto refused = create_campaign("HTTP://169.254.169.254/latest");
  ASSERT_EQ(refused.status, 400u) << refused.body;
  EXPECT_NE(refused.body.find("internal address: the host is a link-local address"),
            std::string::npos)
      << refused.body;
  EXPECT_EQ(refused.body.find("not an http"), std::string::npos) << refused.body;
}

// A name in /etc/hosts (read by the resolver at every look-up) stands for a
// DNS record the attacker controls. Nodes of this test binary allow
// 127.0.0.1/32 (the dialer tests' receivers) or 127.0.0.3/32 (this node);
// 127.0.0.4 is allowed by none.
class hosts_entry {
public:
  explicit hosts_entry(std::string name) : name_(std::move(name)) {
    std::ifstream in{"/etc/hosts"};
    std::stringstream all;
    all << in.rdbuf();
    original_ = all.str();
  }
  ~hosts_entry() { write(original_); }
  bool point_at(const std::string& address) {
    return write(original_ + "\n" + address + " " + name_ + "\n");
  }

private:
  bool write(const std::string& text) {
    std::ofstream out{"/etc/hosts", std::ios::trunc};
    out << text;
    return static_cast<bool>(out.flush());
  }
  std::string name_, original_;
};

TEST(outbound_rebinding_test, a_name_that_turns_internal_is_refused_at_delivery) {
  if (::access("/etc/hosts", W_OK) != 0)
    GTEST_SKIP() << "needs a writable /etc/hosts (run as root, as CI does)";
  service_process node{{{"VCS_OUTBOUND_ALLOW", "127.0.0.3/32"},
                        {"VCS_WEBHOOK_INTERVAL_MS", "50"},
                        {"VCS_WEBHOOK_RETRY_SCHEDULE", "100ms,100ms"}}};
  http_client op_client{"127.0.0.1", node.operator_port()};
  http_client pub_client{"127.0.0.1", node.public_port()};
  auto op = [&](const std::string& method, const std::string& target,
                const std::string& body = {}) {
    return op_client.request(method, target, body, bearer(node.operator_token()));
  };
  auto created = parse(op("POST", "/admin/v1/tenants", R"({"name":"rebind","plan":"PRO"})").body);
  const auto tenant = str(created, "tenant_id");
  const auto key = str(created["api_key"], "key");
  ASSERT_EQ(op("POST", "/admin/v1/tenants/" + tenant + "/webhook-secret").status, 201u);

  const auto name = "vcs-rebind-" + std::to_string(::getpid()) + ".test";
  const auto url = "http://" + name + ":9/hook";
  hosts_entry hosts{name};
  auto campaign_with_hook = [&] {
    return pub_client.request("POST", "/api/v2/voice-campaigns",
                              R"({"name":"rebind","webhook_url":")" + url + "\"}", bearer(key));
  };
  // Resolving to an internal address that is not allowed: refused when written.
  ASSERT_TRUE(hosts.point_at("127.0.0.4"));
  auto refused = campaign_with_hook();
  ASSERT_EQ(refused.status, 400u) << refused.body;
  // The rule it breaks, not the address the name resolves to: a tenant
  // cannot map internal names with campaign writes.
  EXPECT_NE(refused.body.find("the host name resolves to a loopback address"), std::string::npos)
      << refused.body;
  EXPECT_EQ(refused.body.find("127.0.0.4"), std::string::npos) << refused.body;
  // Resolving to the allowed address: accepted.
  ASSERT_TRUE(hosts.point_at("127.0.0.3"));
  auto accepted = campaign_with_hook();
  ASSERT_EQ(accepted.status, 201u) << accepted.body;
  const auto campaign = str(parse(accepted.body)["data"], "campaign_id");

  // The record changes; the next delivery resolves again and is refused
  // before connecting.
  ASSERT_TRUE(hosts.point_at("127.0.0.4"));
  {
    auto sql = storage::open_session(database_url());
    storage::enqueue_webhook(*sql, *domain::decode_global_id(domain::entity::tenant, tenant),
                             *domain::decode_global_id(domain::entity::campaign, campaign), url,
                             "evt-rebind-" + tenant, "test.event", R"({"id":"x"})");
  }
  std::string last_error;
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (std::chrono::steady_clock::now() < deadline) {
    auto d =
        parse(op("GET", "/admin/v1/tenants/" + tenant + "/webhook-deliveries?status=dead").body);
    // The endpoint is disabled as the delivery dies, and its own
    // webhook.endpoint_disabled copy dies beside it: find the event.
    for (auto& x : d["deliveries"].GetArray())
      if (str(x, "event_id") == "evt-rebind-" + tenant)
        last_error = str(x, "last_error");
    if (!last_error.empty())
      break;
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_EQ(last_error, "refused: the host name resolves to a loopback address");
}

} // namespace
} // namespace vcs::test
