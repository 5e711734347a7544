// Three service nodes on one database: requests spread round robin end in
// the same exact states as on one node, a node killed during a bulk import
// loses no lead, and what one node changes every other node honours at once.

#include "domain/global_id.hpp"
#include "service_fixture.hpp"
#include "sse_reader.hpp"

#include <atomic>
#include <csignal>
#include <memory>
#include <set>
#include <thread>
#include <vector>

namespace vcs::test {
namespace {

// Fast import take-over, so a dead node's job moves on within seconds.
const std::map<std::string, std::string> node_env{{"VCS_IMPORT_STALE_SECONDS", "2"},
                                                  {"VCS_IMPORT_SWEEP_INTERVAL_MS", "300"}};

class cluster_test : public service_test {
protected:
  void SetUp() override {
    for (int i = 0; i < 3; ++i)
      nodes.push_back(std::make_unique<service_process>(node_env));
  }
  void TearDown() override {
    for (auto& n : nodes)
      if (n)
        n->terminate();
  }

  // Node i's public or operator client (one per calling thread).
  http_client public_of(int i) { return {"127.0.0.1", nodes[i % 3]->public_port()}; }
  http_client operator_of(int i) { return {"127.0.0.1", nodes[i % 3]->operator_port()}; }
  http_response op_on(int i, const std::string& method, const std::string& target,
                      const std::string& body = {}) {
    auto c = operator_of(i);
    return c.request(method, target, body, bearer(nodes[i % 3]->operator_token()));
  }

  // A request as a page of node `node` sends it with a session: each node
  // is a different origin here, as each request goes to the node it names.
  http_response browser_on(int node, const std::string& method, const std::string& target,
                           const std::string& body, const std::string& cookie,
                           const std::string& csrf) {
    const auto host = "127.0.0.1:" + std::to_string(nodes[node]->public_port());
    auto c = public_of(node);
    return c.request(method, target, body,
                     {{"Host", host},
                      {"Origin", "http://" + host},
                      {"Cookie", cookie},
                      {"X-CSRF-Token", csrf},
                      {"Content-Type", "application/json"}});
  }
  static std::string cookie_of(const http_response& r) {
    const auto set_cookie = r.header("set-cookie");
    return set_cookie.substr(0, set_cookie.find(';'));
  }

  // Runs `per_thread(thread index, its node)` on `threads` threads spread
  // round robin over the nodes.
  template <class F> void spread(int threads, F per_thread) {
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; ++i)
      pool.emplace_back([&, i] { per_thread(i, i % 3); });
    for (auto& t : pool)
      t.join();
  }

  std::vector<std::unique_ptr<service_process>> nodes;
};

TEST_F(cluster_test, campaign_limit_holds_across_nodes) {
  auto t = create_tenant("PRO");
  ASSERT_EQ(op("PATCH", "/admin/v1/tenants/" + t.id, R"({"campaign_limit":7})").status, 200u);
  std::atomic<int> created{0}, limited{0}, other{0};
  spread(12, [&](int thread, int node) {
    auto c = public_of(node);
    for (int k = 0; k < 3; ++k) {
      auto r = c.request("POST", "/api/v2/voice-campaigns",
                         R"({"name":"c)" + std::to_string(thread * 10 + k) + "\"}", bearer(t.key));
      (r.status == 201 ? created : r.status == 403 ? limited : other)++;
    }
  });
  EXPECT_EQ(created.load(), 7);
  EXPECT_EQ(limited.load(), 29);
  EXPECT_EQ(other.load(), 0);
}

TEST_F(cluster_test, lead_merges_from_every_node_all_land) {
  auto t = create_tenant("PRO");
  auto c = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"merge"})");
  auto campaign = str(parse(c.body)["data"], "campaign_id");
  ASSERT_EQ(pub("POST", "/api/v2/voice-campaigns/" + campaign + "/leads", t.key,
                R"({"phone_number":"+14155550100"})")
                .status,
            201u);
  std::atomic<int> failed{0};
  spread(9, [&](int thread, int node) {
    auto client = public_of(node);
    for (int k = 0; k < 20; ++k) {
      auto key = "k" + std::to_string(thread) + "_" + std::to_string(k);
      auto r = client.request("PATCH", "/v1/api/voice-campaigns/" + campaign + "/lead/update",
                              R"({"tenant_id":")" + t.id +
                                  R"(","phone_number":"+14155550100","custom_fields":{")" + key +
                                  R"(":)" + std::to_string(k) + "}}",
                              bearer(t.key));
      if (r.status != 200)
        ++failed;
    }
  });
  EXPECT_EQ(failed.load(), 0);
  auto page = parse(pub("GET", "/api/v2/voice-campaigns/" + campaign + "/leads/list", t.key).body);
  ASSERT_EQ(page["leads"].Size(), 1u);
  EXPECT_EQ(page["leads"][0]["custom_fields"].MemberCount(), 180u);
}

TEST_F(cluster_test, usage_recorded_on_every_node_adds_up_exactly) {
  auto t = create_tenant("PRO");
  ASSERT_EQ(op("POST", "/admin/v1/tenants/" + t.id + "/products",
               R"({"product_id":"p","name":"P","pricing_model":"flat","min_minutes_included":100,
                    "additional_minute_price":"0.01",
                    "prices":[{"price_id":"pp","unit_amount":"10","currency":"USD","interval":"month"}]})")
                .status,
            201u);
  auto r = pub("POST", "/api/v2/clients/create", t.key,
               R"({"client_users":[{"email":"u@c.io","password":"plum orchard 1"}],
                   "client_details":{"name":"C","email":"u@c.io"},"client_asset_group":{"name":"g"},
                   "billing_provider":{"type":"processor","selected_product":{"product_id":"p","price_ids":["pp"]}}})");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto client = str(parse(r.body)["data"], "client_id");
  std::atomic<int> failed{0};
  spread(6, [&](int, int node) {
    for (int k = 0; k < 25; ++k)
      if (op_on(node, "POST", "/admin/v1/usage",
                R"({"client_id":")" + client + R"(","minutes":"0.77"})")
              .status != 200)
        ++failed;
  });
  EXPECT_EQ(failed.load(), 0);
  // 150 x 0.77 = 115.50: 100 included, 15.50 billable.
  auto usage = parse(pub("GET", "/api/v2/external-billing/usage", t.key).body);
  EXPECT_EQ(str(usage["data"][0], "minutes_included_used"), "100.00");
  EXPECT_EQ(str(usage["data"][0], "minutes_billable_used"), "15.50");
}

TEST_F(cluster_test, a_node_killed_during_a_bulk_import_loses_no_lead) {
  // The doomed node imports in small chunks, so the kill lands mid-job.
  auto env = node_env;
  env["VCS_IMPORT_CHUNK_SIZE"] = "100";
  nodes[0]->terminate();
  nodes[0] = std::make_unique<service_process>(env);
  auto t = create_tenant("PRO");
  auto c = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"import"})");
  auto campaign = str(parse(c.body)["data"], "campaign_id");
  constexpr int total = 30'000;
  const auto body = numbered_leads(total, 2'000'000);
  auto doomed = public_of(0);
  auto accepted = doomed.request("POST", "/api/v2/voice-campaigns/" + campaign + "/leads/bulk",
                                 body, bearer(t.key));
  ASSERT_EQ(accepted.status, 200u) << accepted.body;
  nodes[0]->send_signal(SIGKILL);
  nodes[0]->wait_exit(std::chrono::seconds(10));
  nodes[0].reset();

  auto listed = [&] {
    auto page = parse(
        pub("GET", "/api/v2/voice-campaigns/" + campaign + "/leads/list?limit=1", t.key).body);
    return page["page_info"]["total_count"].GetInt();
  };
  auto at_kill = listed();
  EXPECT_LT(at_kill, total) << "the import finished before the kill; the test proved nothing";
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while (listed() < total && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(listed(), total);
  auto import_id = str(parse(accepted.body), "import_id");
  auto job =
      parse(pub("GET", "/api/v2/voice-campaigns/" + campaign + "/leads/imports/" + import_id, t.key)
                .body);
  EXPECT_EQ(str(job, "status"), "done");
  EXPECT_EQ(job["inserted"].GetInt(), total);
  EXPECT_EQ(job["duplicates"].GetInt(), 0);
}

TEST_F(cluster_test, changes_made_on_one_node_hold_on_the_others_at_once) {
  auto created = op_on(0, "POST", "/admin/v1/tenants", R"({"name":"x-node","plan":"PRO"})");
  ASSERT_EQ(created.status, 201u) << created.body;
  auto d = parse(created.body);
  auto tenant = str(d, "tenant_id");
  auto key = str(d["api_key"], "key");
  auto key_id = str(d["api_key"], "id");
  auto get_on = [&](int node, const std::string& path) {
    auto c = public_of(node);
    return c.request("GET", path, {}, bearer(key));
  };
  for (int n = 0; n < 3; ++n)
    EXPECT_EQ(get_on(n, "/api/v2/external-billing/usage").status, 200u);
  // A plan change on node 1: node 2 applies the PRO gate on the next request.
  ASSERT_EQ(op_on(1, "PATCH", "/admin/v1/tenants/" + tenant, R"({"plan":"STARTER"})").status, 200u);
  EXPECT_EQ(get_on(2, "/api/v2/external-billing/usage").status, 403u);
  EXPECT_EQ(get_on(0, "/api/v2/clients").status, 200u);
  // A key disabled on node 0 is refused by nodes 1 and 2 on the next request.
  ASSERT_EQ(op_on(0, "PATCH", "/admin/v1/api-keys/" + key_id, R"({"status":"Disabled"})").status,
            200u);
  for (int n : {1, 2}) {
    auto r = get_on(n, "/api/v2/clients");
    EXPECT_EQ(r.status, 401u) << n;
    EXPECT_EQ(str(parse(r.body), "message"), "API key is disabled");
  }
  ASSERT_EQ(op_on(2, "PATCH", "/admin/v1/api-keys/" + key_id, R"({"status":"Active"})").status,
            200u);
  // An inactive tenant is refused everywhere at once.
  ASSERT_EQ(op_on(2, "PATCH", "/admin/v1/tenants/" + tenant, R"({"active":false})").status, 200u);
  for (int n = 0; n < 3; ++n)
    EXPECT_EQ(get_on(n, "/api/v2/clients").status, 403u) << n;
}

// Each node keeps the lead pages it rendered; a write acknowledged by any
// node shows in the next list on every node, and a key or tenant switched
// off is refused there although its pages are kept.
TEST_F(cluster_test, a_page_kept_on_every_node_shows_a_write_from_any_node_at_once) {
  auto created = op_on(0, "POST", "/admin/v1/tenants", R"({"name":"pages","plan":"PRO"})");
  ASSERT_EQ(created.status, 201u) << created.body;
  auto d = parse(created.body);
  auto tenant = str(d, "tenant_id");
  auto key = str(d["api_key"], "key");
  auto key_id = str(d["api_key"], "id");
  auto call_on = [&](int node, const std::string& method, const std::string& path,
                     const std::string& body = {}) {
    auto c = public_of(node);
    return c.request(method, path, body, bearer(key));
  };
  auto c = call_on(0, "POST", "/api/v2/voice-campaigns", R"({"name":"kept"})");
  ASSERT_EQ(c.status, 201u) << c.body;
  auto base = "/api/v2/voice-campaigns/" + str(parse(c.body)["data"], "campaign_id");
  // The newest lead's first name and the total, as node `n` lists them.
  auto seen_on = [&](int n) {
    auto r = call_on(n, "GET", base + "/leads/list?limit=1");
    EXPECT_EQ(r.status, 200u) << r.body;
    auto page = parse(r.body);
    const auto& first = page["leads"][0];
    return str(first, "first_name") + "/" +
           std::to_string(page["page_info"]["total_count"].GetInt64());
  };
  auto keep_everywhere = [&](const std::string& expected) {
    for (int n = 0; n < 3; ++n)
      for (int twice = 0; twice < 2; ++twice)
        ASSERT_EQ(seen_on(n), expected) << "node " << n;
  };
  ASSERT_EQ(call_on(0, "POST", base + "/leads", R"({"phone_number":"+14155550100"})").status, 201u);
  keep_everywhere("/1");
  ASSERT_EQ(call_on(1, "POST", base + "/leads",
                    R"({"phone_number":"+14155550101","first_name":"Second"})")
                .status,
            201u);
  for (int n : {0, 2})
    EXPECT_EQ(seen_on(n), "Second/2") << "node " << n;
  keep_everywhere("Second/2");
  auto updated = call_on(2, "PATCH", base + "/leads/update/bulk",
                         R"([{"phone_number":"+14155550101","first_name":"Renamed"}])");
  ASSERT_EQ(updated.status, 200u) << updated.body;
  for (int n : {0, 1})
    EXPECT_EQ(seen_on(n), "Renamed/2") << "node " << n;
  keep_everywhere("Renamed/2");

  ASSERT_EQ(op_on(0, "PATCH", "/admin/v1/api-keys/" + key_id, R"({"status":"Disabled"})").status,
            200u);
  for (int n : {1, 2}) {
    auto r = call_on(n, "GET", base + "/leads/list?limit=1");
    EXPECT_EQ(r.status, 401u) << n;
    EXPECT_EQ(str(parse(r.body), "message"), "API key is disabled");
  }
  ASSERT_EQ(op_on(1, "PATCH", "/admin/v1/api-keys/" + key_id, R"({"status":"Active"})").status,
            200u);
  keep_everywhere("Renamed/2");
  ASSERT_EQ(op_on(2, "PATCH", "/admin/v1/tenants/" + tenant, R"({"active":false})").status, 200u);
  for (int n = 0; n < 3; ++n)
    EXPECT_EQ(call_on(n, "GET", base + "/leads/list?limit=1").status, 403u) << n;
}

TEST_F(cluster_test, a_session_made_on_one_node_holds_on_another_and_ends_on_every_node_at_once) {
  auto t = create_tenant();
  auto made =
      op_on(0, "POST", "/admin/v1/tenants/" + t.id + "/members",
            R"({"email":"cluster-owner-)" + std::to_string(tenant_db_id(t)) + R"(@example.test"})");
  ASSERT_EQ(made.status, 201u) << made.body;
  const auto url = str(parse(made.body), "setup_url");
  const auto token = url.substr(url.find("#token=") + 7);
  auto browser = [&](auto&&... a) { return browser_on(a...); };
  auto set_up = browser(0, "POST", "/api/v2/session/setup",
                        R"({"token":")" + token + R"(","password":"cluster password"})", "", "");
  ASSERT_EQ(set_up.status, 201u) << set_up.body;
  const auto cookie = cookie_of(set_up);
  const auto csrf = str(parse(set_up.body)["data"], "csrf_token");

  for (int n = 0; n < 3; ++n)
    EXPECT_EQ(browser(n, "GET", "/api/v2/session", "", cookie, csrf).status, 200u) << n;
  EXPECT_EQ(
      browser(1, "POST", "/api/v2/voice-campaigns", R"({"name":"made on node 1"})", cookie, csrf)
          .status,
      201u);
  ASSERT_EQ(browser(2, "DELETE", "/api/v2/session", "", cookie, csrf).status, 200u);
  for (int n = 0; n < 3; ++n)
    EXPECT_EQ(browser(n, "GET", "/api/v2/voice-campaigns", "", cookie, csrf).status, 401u) << n;
}

TEST_F(cluster_test, a_payment_due_shuts_a_portal_session_on_every_node_and_its_payment_opens_it) {
  auto t = create_tenant("PRO");
  ASSERT_EQ(op_on(0, "POST", "/admin/v1/tenants/" + t.id + "/products",
                  R"({"product_id":"prod_c","name":"Cluster plan","pricing_model":"flat",
                      "min_minutes_included":10,"additional_minute_price":"0.02",
                      "prices":[{"price_id":"price_c","unit_amount":"9","currency":"USD","interval":"month"}]})")
                .status,
            201u);
  auto campaign = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"portal"})");
  ASSERT_EQ(campaign.status, 201u);
  const auto campaign_id = str(parse(campaign.body)["data"], "campaign_id");
  auto client =
      pub("POST", "/api/v2/clients/create", t.key,
          R"({"client_users":[{"email":"portal@cluster.test","password":"plum orchard 1"}],
                        "client_details":{"name":"Cluster client","email":"portal@cluster.test"},
                        "client_asset_group":{"name":"g"},
                        "billing_provider":{"type":"processor","selected_product":{"product_id":"prod_c","price_ids":["price_c"]}},
                        "assigned_resources":{"campaign":[")" +
              campaign_id + R"("]}})");
  ASSERT_EQ(client.status, 201u) << client.body;
  const auto client_id = std::to_string(*domain::decode_global_id(
      domain::entity::client, str(parse(client.body)["data"], "client_id")));
  const auto subscription =
      str(parse(pub("GET", "/api/v2/external-billing/subscriptions", t.key).body)["data"][0], "id");

  auto signed_in = browser_on(0, "POST", "/api/v2/portal/session",
                              R"({"tenant_id":")" + t.id +
                                  R"(","email":"portal@cluster.test","password":"plum orchard 1"})",
                              "", "");
  ASSERT_EQ(signed_in.status, 201u) << signed_in.body;
  const auto cookie = cookie_of(signed_in);
  const auto csrf = str(parse(signed_in.body)["data"], "csrf_token");
  const auto read = "/api/v2/voice-campaigns/" + campaign_id;
  for (int n = 0; n < 3; ++n)
    EXPECT_EQ(browser_on(n, "GET", read, "", cookie, csrf).status, 200u) << n;

  auto request = op_on(1, "POST", "/admin/v1/payment-requests",
                       R"({"client_id":")" + client_id + R"(","subscription_id":")" + subscription +
                           R"(","type":"SUBSCRIPTION","amount":"9.00",
                           "currency":"USD","due_date":"2099-01-01T00:00:00Z",
                           "period_start":"2098-12-01","period_end":"2099-01-01"})");
  ASSERT_EQ(request.status, 201u) << request.body;
  const auto update =
      "/api/v2/external-billing/payment-requests/" + str(parse(request.body), "id") + "/update";
  auto c1 = public_of(1);
  ASSERT_EQ(c1.request("PATCH", update, R"({"status":"OVERDUE"})", bearer(t.key)).status, 200u);
  for (int n = 0; n < 3; ++n)
    EXPECT_EQ(browser_on(n, "GET", read, "", cookie, csrf).status, 403u) << n;
  auto c2 = public_of(2);
  ASSERT_EQ(c2.request("PATCH", update, R"({"status":"PAID"})", bearer(t.key)).status, 200u);
  for (int n = 0; n < 3; ++n)
    EXPECT_EQ(browser_on(n, "GET", read, "", cookie, csrf).status, 200u) << n;
}

TEST_F(cluster_test, an_event_stream_resumed_on_another_node_after_its_node_died_loses_no_event) {
  auto t = create_tenant();
  auto c = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"streamed"})");
  const auto base = "/api/v2/voice-campaigns/" + str(parse(c.body)["data"], "campaign_id");
  // Bulk adds on `node`, each awaited: one import.completed event apiece.
  std::vector<std::string> made;
  auto imports = [&](int node, int count) {
    for (int i = 0; i < count; ++i) {
      auto client = public_of(node);
      auto r = client.request("POST", base + "/leads/bulk",
                              numbered_leads(2, 5'550'000 + 10 * static_cast<int>(made.size())),
                              bearer(t.key));
      ASSERT_EQ(r.status, 200u) << r.body;
      made.push_back(str(parse(r.body), "import_id"));
      wait_import(base, t.key, made.back());
    }
  };
  auto stream_on = [&](int node, const header_list& more) {
    header_list headers{{"Authorization", "Bearer " + t.key}};
    headers.insert(headers.end(), more.begin(), more.end());
    return std::make_unique<sse_reader>(nodes[node]->public_port(), "/api/v2/events/stream",
                                        headers);
  };
  auto read = [](sse_reader& s, int count, std::string* last) {
    std::vector<std::string> ids;
    for (int i = 0; i < count; ++i)
      if (auto e = s.next_feed_event(std::chrono::seconds(10))) {
        ids.push_back(str(parse(e->data)["payload"]["data"], "import_id"));
        *last = e->id;
      }
    return ids;
  };

  auto first = stream_on(0, {});
  ASSERT_EQ(first->status(), 200u) << first->rest();
  imports(1, 3);
  std::string last;
  EXPECT_EQ(read(*first, 2, &last), std::vector<std::string>(made.begin(), made.begin() + 2));
  nodes[0]->send_signal(SIGKILL);
  nodes[0]->wait_exit(std::chrono::seconds(10));
  nodes[0].reset();
  // The client had handled two events when the node died (a third may
  // already have been on its way).
  first->close();

  imports(2, 2);
  auto resumed = stream_on(1, {{"Last-Event-ID", last}});
  ASSERT_EQ(resumed->status(), 200u) << resumed->rest();
  EXPECT_EQ(read(*resumed, 3, &last), std::vector<std::string>(made.begin() + 2, made.end()));
  EXPECT_FALSE(resumed->next_feed_event(std::chrono::milliseconds(1500))) << "no event twice";
}

} // namespace
} // namespace vcs::test
