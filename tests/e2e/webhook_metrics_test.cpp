// vcs_webhook_deliveries_total{outcome}: each attempt counted by the node
// that made it. Its own executable: in e2e_tests other nodes of the same
// database claim deliveries too, so a node's counts there tell nothing.

#include "eventually.hpp"
#include "http_client.hpp"
#include "json_helpers.hpp"
#include "metrics_text.hpp"
#include "service_process.hpp"
#include "webhook_receiver.hpp"

#include <gtest/gtest.h>

namespace vcs::test {
namespace {

TEST(webhook_metrics_test, attempts_are_counted_by_outcome) {
  // One attempt and no retry, so a failing endpoint fails once and is then
  // disabled (the schedule spent); loopback receivers allowed.
  service_process node{{{"VCS_WEBHOOK_INTERVAL_MS", "50"},
                        {"VCS_WEBHOOK_RETRY_SCHEDULE", "100ms"},
                        {"VCS_WEBHOOK_TIMEOUT_MS", "2000"},
                        {"VCS_OUTBOUND_ALLOW", "127.0.0.1/32"}}};
  http_client op{"127.0.0.1", node.operator_port()};
  http_client pub{"127.0.0.1", node.public_port()};
  auto t = op.request("POST", "/admin/v1/tenants", R"({"name":"counted hooks","plan":"PRO"})",
                      bearer(node.operator_token()));
  ASSERT_EQ(t.status, 201u) << t.body;
  const auto key = bearer(str(parse(t.body)["api_key"], "key"));
  ASSERT_EQ(pub.request("POST", "/api/v2/webhook-secret", {}, key).status, 201u);
  webhook_receiver healthy;
  webhook_receiver failing;
  failing.respond_with(500);
  auto campaign = [&](const std::string& url) {
    auto r = pub.request("POST", "/api/v2/voice-campaigns",
                         R"({"name":"hooks","webhook_url":")" + url + "\"}", key);
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "campaign_id");
  };
  auto event = [&](const std::string& c) {
    auto r = pub.request("POST", "/api/v2/voice-campaigns/" + c + "/webhook-test", {}, key);
    EXPECT_EQ(r.status, 202u) << r.body;
    return str(parse(r.body)["data"], "id");
  };
  auto status = [&](const std::string& id) {
    return str(parse(pub.request("GET", "/api/v2/webhook-deliveries/" + id, {}, key).body)["data"],
               "status");
  };
  const auto start = op.get("/metrics", bearer(node.operator_token())).body;
  auto counted = [&](const char* outcome) {
    const std::string series =
        std::string{"vcs_webhook_deliveries_total{outcome=\""} + outcome + "\"}";
    return metric_value(op.get("/metrics", bearer(node.operator_token())).body, series) -
           metric_value(start, series);
  };
  // Deliveries left by earlier tests may be attempted by this node too:
  // at least ours are counted.
  auto fine = campaign(healthy.url());
  auto broken = campaign(failing.url());
  auto delivered = event(fine);
  ASSERT_TRUE(eventually([&] { return status(delivered) == "delivered"; }));
  EXPECT_GE(counted("delivered"), 1);

  auto failed = event(broken);
  ASSERT_TRUE(eventually([&] { return status(failed) == "dead"; }));
  EXPECT_GE(counted("failed"), 2) << "the attempt and its one retry answered 500";

  // The endpoint, failing through its whole schedule, is disabled: the
  // next event is not sent, and counted as skipped.
  auto skipped = event(broken);
  ASSERT_TRUE(eventually([&] { return status(skipped) == "dead"; }));
  EXPECT_GE(counted("skipped"), 1);
  EXPECT_EQ(failing.received().size(), 2u);
}

} // namespace
} // namespace vcs::test
