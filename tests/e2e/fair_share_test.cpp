// No tenant takes the node away from another: one API key holds at most its
// share of the public request workers and of waiting places (429 beyond),
// a tenant's request rate is capped (429 with Retry-After and the IETF
// RateLimit fields), the operator plane has workers of its own, and
// readiness turns false while the public workers stay saturated. The heavy
// request is a client creation with 25 users (25 argon2id hashes on the CPU
// pool).

#include "eventually.hpp"
#include "http_client.hpp"
#include "json_helpers.hpp"
#include "metrics_text.hpp"
#include "service_process.hpp"
#include "storage/database.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace vcs::test {
namespace {

using namespace std::chrono_literals;

struct tenant {
  std::string id;
  std::string key;
};

class node_client {
public:
  explicit node_client(service_process& node) : node_(node) {}

  http_response op(const std::string& method, const std::string& target,
                   const std::string& body = {}) {
    http_client c{"127.0.0.1", node_.operator_port()};
    return c.request(method, target, body, bearer(node_.operator_token()));
  }
  http_response pub(const std::string& key, const std::string& method, const std::string& target,
                    const std::string& body = {}) {
    http_client c{"127.0.0.1", node_.public_port()};
    return c.request(method, target, body, bearer(key));
  }
  // A tenant whose key this node has read once when `read` (so its requests
  // take the tenant's share from the first).
  tenant create_tenant(const std::string& name, bool read = true) {
    auto r = op("POST", "/admin/v1/tenants", R"({"name":")" + name + R"(","plan":"PRO"})");
    EXPECT_EQ(r.status, 201u) << r.body;
    auto d = parse(r.body);
    tenant t{str(d, "tenant_id"), str(d["api_key"], "key")};
    if (read)
      EXPECT_EQ(pub(t.key, "GET", "/api/v2/clients").status, 200u);
    return t;
  }
  // Another key of `t`, read once.
  std::string another_key(const tenant& t) {
    auto r = op("POST", "/admin/v1/tenants/" + t.id + "/api-keys", R"({"name":"second"})");
    EXPECT_EQ(r.status, 201u) << r.body;
    auto key = str(parse(r.body), "key");
    EXPECT_EQ(pub(key, "GET", "/api/v2/clients").status, 200u);
    return key;
  }
  std::string readyz() {
    http_client c{"127.0.0.1", node_.operator_port()};
    return c.get("/readyz").body;
  }

private:
  service_process& node_;
};

// A client creation with 25 users: about 1.5 s of one worker.
std::string heavy_body(const std::string& tag) {
  std::string users;
  for (int i = 0; i < 25; ++i)
    users += std::string{i ? "," : ""} + R"({"email":"u)" + std::to_string(i) + "-" + tag +
             R"(@acme.io","password":"correct horse"})";
  return R"({"client_users":[)" + users + R"(],"client_details":{"name":"Heavy","email":"h-)" +
         tag + R"(@acme.io"},"client_asset_group":{"name":"g"}})";
}

// Sends `n` heavy requests at once from their own connections; each status
// lands in `statuses` and `done` counts the answers.
std::vector<std::thread> flood(node_client& nc, const std::string& key, int n,
                               std::vector<unsigned>& statuses, std::atomic<int>& done) {
  statuses.assign(static_cast<std::size_t>(n), 0);
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i)
    threads.emplace_back([&, i] {
      statuses[static_cast<std::size_t>(i)] =
          nc.pub(key, "POST", "/api/v2/clients/create",
                 heavy_body(key.substr(4, 8) + "-" + std::to_string(i)))
              .status;
      ++done;
    });
  return threads;
}

// Two workers, one key may hold one of them and four places: a neighbour is
// served while the flood waits behind itself (its hashing on the CPU pool,
// where one key has four places too), and the fifth request of the flooding
// key is refused at once.
TEST(fair_share_test, a_flooding_key_waits_behind_itself_and_is_refused_past_its_places) {
  service_process node{{{"VCS_REQUEST_WORKERS", "2"},
                        {"VCS_TENANT_MAX_WORKERS", "1"},
                        {"VCS_TENANT_MAX_PENDING", "4"},
                        {"VCS_MAX_QUEUE_WAIT_MS", "60000"}}};
  node_client nc{node};
  auto attacker = nc.create_tenant("attacker");
  auto victim = nc.create_tenant("victim");
  std::vector<unsigned> statuses;
  std::atomic<int> done{0};
  auto threads = flood(nc, attacker.key, 4, statuses, done);
  std::this_thread::sleep_for(300ms); // all four arrive; one runs, three wait
  auto served = nc.pub(victim.key, "GET", "/api/v2/clients");
  const int attacker_done_then = done.load();
  EXPECT_EQ(served.status, 200u) << served.body;
  // The neighbour did not wait for any of the flood's requests (~1.5 s each).
  EXPECT_EQ(attacker_done_then, 0);
  auto refused = nc.pub(attacker.key, "POST", "/api/v2/clients/create", heavy_body("fifth"));
  EXPECT_EQ(refused.status, 429u) << refused.body;
  EXPECT_EQ(refused.header("retry-after"), "1");
  EXPECT_NE(refused.body.find("Too many requests in flight"), std::string::npos) << refused.body;
  for (auto& t : threads)
    t.join();
  for (auto s : statuses)
    EXPECT_EQ(s, 201u);
}

// All keys of a tenant take one share of the workers and their waiting
// places, however the header spells them: with its first key's four reads
// waiting (on a lock), the tenant's second key finds no place left.
TEST(fair_share_test, every_key_and_spelling_of_a_tenant_takes_one_share) {
  service_process node{{{"VCS_REQUEST_WORKERS", "2"},
                        {"VCS_TENANT_MAX_WORKERS", "1"},
                        {"VCS_TENANT_MAX_PENDING", "4"},
                        {"VCS_MAX_QUEUE_WAIT_MS", "60000"}}};
  node_client nc{node};
  auto tenant = nc.create_tenant("two keys");
  const auto second = nc.another_key(tenant);
  auto created = nc.pub(tenant.key, "POST", "/api/v2/voice-campaigns", R"({"name":"held"})");
  ASSERT_EQ(created.status, 201u) << created.body;
  const std::string campaign =
      "/api/v2/voice-campaigns/" + str(parse(created.body)["data"], "campaign_id");
  auto holder = storage::open_session(database_url());
  auto held = std::make_unique<soci::transaction>(*holder);
  *holder << "LOCK TABLE campaigns IN ACCESS EXCLUSIVE MODE";
  std::vector<unsigned> statuses(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < statuses.size(); ++i)
    threads.emplace_back([&, i] { statuses[i] = nc.pub(tenant.key, "GET", campaign).status; });
  std::this_thread::sleep_for(300ms);
  // Without one share these would wait for the lock and then be served.
  std::thread release{[&] {
    std::this_thread::sleep_for(3s);
    held->commit();
  }};
  for (const auto& header : {"Bearer " + second, "bearer  " + tenant.key}) {
    http_client c{"127.0.0.1", node.public_port()};
    const auto started = std::chrono::steady_clock::now();
    auto refused = c.request("GET", campaign, {},
                             {{"Authorization", header}, {"Content-Type", "application/json"}});
    EXPECT_EQ(refused.status, 429u) << header << ": " << refused.body;
    EXPECT_LT(std::chrono::steady_clock::now() - started, 1s) << header;
  }
  release.join();
  for (auto& t : threads)
    t.join();
  for (auto s : statuses)
    EXPECT_EQ(s, 200u);
}

// A token that matches no key costs one database read: the node then
// answers it 401 on its own for a few seconds (counted as unknown_key), and
// one client address may have only eight different unknown tokens in flight
// (429 beyond), however slow their reads are.
TEST(fair_share_test, unknown_keys_cost_one_read_each_and_few_at_once_per_address) {
  service_process node{{{"VCS_REQUEST_WORKERS", "16"}, {"VCS_MAX_QUEUE_WAIT_MS", "60000"}}};
  node_client nc{node};
  auto holder = storage::open_session(database_url());
  auto held = std::make_unique<soci::transaction>(*holder);
  // Key reads wait while the table is locked.
  *holder << "LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE";
  std::vector<unsigned> statuses(8, 0);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < statuses.size(); ++i)
    threads.emplace_back([&, i] {
      statuses[i] = nc.pub("vcs_junk" + std::to_string(i), "GET", "/api/v2/clients").status;
    });
  std::this_thread::sleep_for(500ms);
  const auto started = std::chrono::steady_clock::now();
  auto ninth = nc.pub("vcs_junk8", "GET", "/api/v2/clients");
  EXPECT_LT(std::chrono::steady_clock::now() - started, 1s);
  EXPECT_EQ(ninth.status, 429u) << ninth.body;
  EXPECT_EQ(ninth.header("retry-after"), "1");
  EXPECT_EQ(str(parse(ninth.body), "message"),
            "Too many unknown API keys from this address at once; try again shortly");
  held->commit();
  for (auto& t : threads)
    t.join();
  for (auto s : statuses)
    EXPECT_EQ(s, 401u);
  // Again: answered without a read, even with the table locked.
  held = std::make_unique<soci::transaction>(*holder);
  *holder << "LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE";
  for (int i = 0; i < 8; ++i) {
    auto again = nc.pub("vcs_junk" + std::to_string(i), "GET", "/api/v2/clients");
    EXPECT_EQ(again.status, 401u);
    EXPECT_EQ(str(parse(again.body), "message"), "Invalid API key");
  }
  held->commit();
  auto scrape = nc.op("GET", "/metrics").body;
  EXPECT_EQ(metric_value(scrape, R"(vcs_http_refused_total{status="401",cause="unknown_key"})"), 8);
}

// One worker: a flood saturates it, /readyz says so, and the operator plane
// (its own workers) still answers; once the flood is over the node is ready.
TEST(fair_share_test, readiness_follows_saturation_and_operators_are_served_during_a_flood) {
  service_process node{{{"VCS_REQUEST_WORKERS", "1"},
                        {"VCS_TENANT_MAX_PENDING", "16"},
                        {"VCS_READINESS_SATURATION_MS", "100"},
                        {"VCS_MAX_QUEUE_WAIT_MS", "60000"}}};
  node_client nc{node};
  {
    http_client c{"127.0.0.1", node.public_port()};
    auto live = c.get("/livez");
    EXPECT_EQ(live.status, 200u);
    EXPECT_EQ(live.body, R"({"status":"alive"})");
  }
  EXPECT_EQ(nc.readyz(), R"({"status":"ready"})");
  auto attacker = nc.create_tenant("saturating");
  auto created = nc.pub(attacker.key, "POST", "/api/v2/voice-campaigns", R"({"name":"held"})");
  ASSERT_EQ(created.status, 201u) << created.body;
  const std::string campaign =
      "/api/v2/voice-campaigns/" + str(parse(created.body)["data"], "campaign_id");
  // Campaign reads wait while the table is locked here: the one worker is
  // held by the first read and the others queue behind it.
  auto holder = storage::open_session(database_url());
  auto held = std::make_unique<soci::transaction>(*holder);
  *holder << "LOCK TABLE campaigns IN ACCESS EXCLUSIVE MODE";
  std::vector<unsigned> statuses(3, 0);
  std::atomic<int> done{0};
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < statuses.size(); ++i)
    threads.emplace_back([&, i] {
      statuses[i] = nc.pub(attacker.key, "GET", campaign).status;
      ++done;
    });
  const std::string saturated = R"({"status":"unready","message":"request workers saturated"})";
  EXPECT_TRUE(eventually([&] { return nc.readyz() == saturated; }, 10s));
  auto tenants = nc.op("GET", "/admin/v1/tenants/" + attacker.id);
  EXPECT_EQ(tenants.status, 200u) << tenants.body;
  EXPECT_EQ(nc.readyz(), saturated) << "the flood should still be on";
  EXPECT_EQ(done.load(), 0);
  held->commit();
  for (auto& t : threads)
    t.join();
  EXPECT_TRUE(eventually([&] { return nc.readyz() == R"({"status":"ready"})"; }, 5s));
  for (auto s : statuses)
    EXPECT_EQ(s, 200u);
}

// A tenant over its rate gets 429 with Retry-After and the RateLimit fields;
// another tenant on the same node is not held back.
TEST(fair_share_test, a_tenant_over_its_rate_gets_429_and_another_is_not_held_back) {
  service_process node{{{"VCS_TENANT_RATE_LIMIT", "3"}}};
  node_client nc{node};
  auto busy = nc.create_tenant("busy", false);
  auto quiet = nc.create_tenant("quiet");
  http_client c{"127.0.0.1", node.public_port()};
  auto first = c.request("GET", "/api/v2/clients", {}, bearer(busy.key));
  ASSERT_EQ(first.status, 200u);
  EXPECT_EQ(first.header("ratelimit-policy"), R"("tenant";q=3;w=1)");
  EXPECT_EQ(first.header("ratelimit"), R"("tenant";r=5;t=1)");
  http_response limited;
  for (int i = 0; i < 30 && limited.status != 429; ++i)
    limited = c.request("GET", "/api/v2/clients", {}, bearer(busy.key));
  ASSERT_EQ(limited.status, 429u) << limited.body;
  EXPECT_EQ(limited.header("retry-after"), "1");
  EXPECT_EQ(limited.header("ratelimit"), R"("tenant";r=0;t=1)");
  EXPECT_EQ(str(parse(limited.body), "message"),
            "Rate limit exceeded: at most 3 requests a second; try again shortly");
  EXPECT_EQ(nc.pub(quiet.key, "GET", "/api/v2/clients").status, 200u);
  std::this_thread::sleep_for(1100ms); // the bucket refills
  EXPECT_EQ(c.request("GET", "/api/v2/clients", {}, bearer(busy.key)).status, 200u);
}

} // namespace
} // namespace vcs::test
