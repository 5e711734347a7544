// Limits that keep the service answering under hostile or excessive load:
// connection caps (in all and per client) answer 503 and close, and requests
// beyond the queue limit or older than the queue wait are shed with 503
// instead of queueing without bound. Health stays answered throughout.

#include "eventually.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <vector>

namespace vcs::test {
namespace {

class overload_test : public service_test {
protected:
  // A tenant with a campaign, provisioned on `node`.
  struct fixture {
    std::string key;
    std::string list_target;
  };
  fixture provision(service_process& node) {
    http_client op_client{"127.0.0.1", node.operator_port()};
    auto tenant = parse(op_client
                            .request("POST", "/admin/v1/tenants", R"({"name":"load","plan":"PRO"})",
                                     bearer(node.operator_token()))
                            .body);
    fixture f;
    f.key = str(tenant["api_key"], "key");
    http_client c{"127.0.0.1", node.public_port()};
    auto campaign =
        c.request("POST", "/api/v2/voice-campaigns", R"({"name":"load"})", bearer(f.key));
    EXPECT_EQ(campaign.status, 201u) << campaign.body;
    f.list_target = "/api/v2/voice-campaigns/" + str(parse(campaign.body)["data"], "campaign_id") +
                    "/leads/list";
    return f;
  }
};

// The node holds at most large-body-memory bytes of bulk bodies at once: a
// body that does not fit beside those being read is answered 503 with
// Retry-After before it is read, and fits again once they are over.
TEST_F(overload_test, bulk_bodies_beyond_the_nodes_large_body_memory_wait_their_turn) {
  service_process node{{{"VCS_LARGE_BODY_MEMORY", "1000000"}}};
  auto f = provision(node);
  const auto bulk_target =
      f.list_target.substr(0, f.list_target.size() - std::string{"/list"}.size()) + "/bulk";
  auto body = [](int from, int count) {
    std::string out = "[";
    for (int i = from; i < from + count; ++i)
      out += std::string{i > from ? "," : ""} + R"({"phone_number":"+1415)" +
             std::to_string(3000000 + i) + R"("})";
    return out + "]";
  };
  const auto first = body(0, 20000); // about 600 KB
  ASSERT_GT(first.size(), 500000u);
  ASSERT_LT(first.size(), 1000000u);
  // A client sending that body slowly holds its share while it sends.
  http_client slow{"127.0.0.1", node.public_port()};
  slow.send_raw("POST " + bulk_target + " HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer " +
                f.key + "\r\nContent-Type: application/json\r\nContent-Length: " +
                std::to_string(first.size()) + "\r\n\r\n" + first.substr(0, 1000));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  http_client c{"127.0.0.1", node.public_port()};
  auto refused = c.request("POST", bulk_target, body(100000, 20000), bearer(f.key));
  EXPECT_EQ(refused.status, 503u) << refused.body.substr(0, 300);
  EXPECT_EQ(str(parse(refused.body), "message"),
            "Service busy with large request bodies; try again shortly");
  EXPECT_EQ(refused.header("retry-after"), "1");
  // Small requests are not held up.
  EXPECT_EQ(c.request("GET", f.list_target, {}, bearer(f.key)).status, 200u);
  // The slow body arrives; once its request is over, the next one fits.
  slow.send_raw(first.substr(1000));
  auto done = slow.read_response();
  EXPECT_EQ(done.status, 200u) << done.body.substr(0, 300);
  // Its share comes back when the request's last holder lets it go, a
  // moment after the answer: a client retrying as Retry-After says gets in.
  http_response later;
  EXPECT_TRUE(eventually(
      [&] {
        later = c.request("POST", bulk_target, body(100000, 20000), bearer(f.key));
        return later.status != 503u;
      },
      std::chrono::seconds(10)));
  EXPECT_EQ(later.status, 200u) << later.body.substr(0, 300);
  EXPECT_EQ(node.terminate(), 0);
}

TEST_F(overload_test, connections_beyond_the_per_client_limit_get_503_and_the_rest_keep_working) {
  service_process node{{{"VCS_MAX_CONNECTIONS_PER_CLIENT", "3"}}};
  std::vector<std::unique_ptr<http_client>> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(std::make_unique<http_client>("127.0.0.1", node.public_port()));
    ASSERT_EQ(held.back()->get("/healthz").status, 200u);
  }
  http_client extra{"127.0.0.1", node.public_port()};
  auto refused = extra.get("/healthz");
  EXPECT_EQ(refused.status, 503u);
  EXPECT_EQ(str(parse(refused.body), "message"),
            "Too many connections from this client; try again shortly");
  EXPECT_EQ(refused.header("retry-after"), "1");
  // The held connections still serve, and the operator listener has its own
  // budget.
  EXPECT_EQ(held[0]->get("/healthz").status, 200u);
  http_client op_client{"127.0.0.1", node.operator_port()};
  EXPECT_EQ(op_client.get("/healthz").status, 200u);
  // A slot freed is a slot to use.
  held.pop_back();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  http_client again{"127.0.0.1", node.public_port()};
  EXPECT_EQ(again.get("/healthz").status, 200u);
  EXPECT_EQ(node.terminate(), 0);
}

TEST_F(overload_test, connections_beyond_the_listener_limit_get_503) {
  service_process node{{{"VCS_MAX_CONNECTIONS", "2"}}};
  http_client a{"127.0.0.1", node.operator_port()};
  http_client b{"127.0.0.1", node.operator_port()};
  ASSERT_EQ(a.get("/healthz").status, 200u);
  // The start-up probe's connection may not be closed on the server side yet.
  unsigned b_status = 0;
  for (int i = 0; i < 50 && b_status != 200; ++i) {
    if (i > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    b_status = b.get("/healthz").status;
  }
  ASSERT_EQ(b_status, 200u);
  http_client c{"127.0.0.1", node.operator_port()};
  auto refused = c.get("/healthz");
  EXPECT_EQ(refused.status, 503u);
  EXPECT_EQ(str(parse(refused.body), "message"), "Too many connections; try again shortly");
  EXPECT_EQ(node.terminate(), 0);
}

// One request worker held up by a read that waits for a table lock: with a
// queue limit of one, the next request is shed at once.
TEST_F(overload_test, requests_beyond_the_queue_limit_are_shed_with_503) {
  service_process node{{{"VCS_REQUEST_WORKERS", "1"}, {"VCS_MAX_QUEUED_REQUESTS", "1"}}};
  auto f = provision(node);
  auto sql = storage::open_session(database_url());
  soci::transaction tx{*sql};
  *sql << "LOCK TABLE leads IN ACCESS EXCLUSIVE MODE";
  auto slow = std::async(std::launch::async, [&] {
    http_client c{"127.0.0.1", node.public_port()};
    return c.get(f.list_target, bearer(f.key));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  http_client c{"127.0.0.1", node.public_port()};
  auto shed = c.get(f.list_target, bearer(f.key));
  EXPECT_EQ(shed.status, 503u);
  EXPECT_EQ(str(parse(shed.body), "message"), "Service overloaded; try again shortly");
  EXPECT_EQ(shed.header("retry-after"), "1");
  // Health is answered on the I/O threads, whatever the workers do.
  http_client op_client{"127.0.0.1", node.operator_port()};
  EXPECT_EQ(op_client.get("/healthz").status, 200u);
  tx.rollback();
  EXPECT_EQ(slow.get().status, 200u);
  // The other queued requests finish too; then the queue takes work again.
  EXPECT_TRUE(eventually([&] { return c.get(f.list_target, bearer(f.key)).status == 200u; }));
  EXPECT_EQ(node.terminate(), 0);
}

// A request that waited in the queue longer than the limit is answered 503
// without being run: a write queued behind the held-up read does not happen.
TEST_F(overload_test, requests_that_waited_too_long_are_shed_unrun) {
  service_process node{{{"VCS_REQUEST_WORKERS", "1"},
                        {"VCS_MAX_QUEUED_REQUESTS", "0"},
                        {"VCS_MAX_QUEUE_WAIT_MS", "300"}}};
  auto f = provision(node);
  auto campaign_target = f.list_target.substr(0, f.list_target.size() - 11);
  auto sql = storage::open_session(database_url());
  std::future<http_response> slow, queued;
  {
    soci::transaction tx{*sql};
    *sql << "LOCK TABLE leads IN ACCESS EXCLUSIVE MODE";
    slow = std::async(std::launch::async, [&] {
      http_client c{"127.0.0.1", node.public_port()};
      return c.get(f.list_target, bearer(f.key));
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    queued = std::async(std::launch::async, [&] {
      http_client c{"127.0.0.1", node.public_port()};
      return c.request("PATCH", campaign_target, R"({"name":"renamed"})", bearer(f.key));
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    tx.rollback();
  }
  EXPECT_EQ(slow.get().status, 200u);
  auto shed = queued.get();
  EXPECT_EQ(shed.status, 503u) << shed.body;
  http_client c{"127.0.0.1", node.public_port()};
  auto campaign = parse(c.get(campaign_target, bearer(f.key)).body);
  EXPECT_EQ(str(campaign["data"], "name"), "load");
  EXPECT_EQ(node.terminate(), 0);
}

} // namespace
} // namespace vcs::test
