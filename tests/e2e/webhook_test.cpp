// Webhooks as a tenant sees them: Standard Webhooks signatures checked the
// specification's way, secret rotation with a grace period, the retry
// schedule and the endpoint it disables, and the tenant's routes to list,
// read, replay and test deliveries and to enable endpoints again. Events
// come from the test route, so no dialing is needed.

#include "domain/global_id.hpp"
#include "domain/standard_webhook.hpp"
#include "domain/timestamp.hpp"
#include "domain/webhook_signature.hpp"
#include "eventually.hpp"
#include "http_client.hpp"
#include "json_helpers.hpp"
#include "service_process.hpp"
#include "storage/database.hpp"
#include "webhook_receiver.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace vcs::test {
namespace {

using namespace std::chrono_literals;

// Three attempts 100 ms apart at most 120 ms (jitter); receivers listen on
// loopback, which the operator allows here. Every node of this process
// that sends webhooks has this schedule, since any of them may claim a
// delivery (and an endpoint is disabled after failing for the schedule's
// span as the claiming node sees it).
service_process& webhook_node() {
  static service_process node{{{"VCS_WEBHOOK_INTERVAL_MS", "50"},
                               {"VCS_WEBHOOK_RETRY_SCHEDULE", "100ms,100ms"},
                               {"VCS_WEBHOOK_TIMEOUT_MS", "2000"},
                               {"VCS_OUTBOUND_ALLOW", "127.0.0.1/32"},
                               {"VCS_IMPORT_SWEEP_INTERVAL_MS", "200"}}};
  return node;
}

int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class webhook_test : public ::testing::Test {
protected:
  webhook_test()
      : node(webhook_node()), pub_client("127.0.0.1", node.public_port()),
        op_client("127.0.0.1", node.operator_port()) {}

  void SetUp() override {
    static std::atomic<int> counter{0};
    auto r =
        op_client.request("POST", "/admin/v1/tenants",
                          R"({"name":"hooks-)" + std::to_string(++counter) + R"(","plan":"PRO"})",
                          bearer(node.operator_token()));
    ASSERT_EQ(r.status, 201u) << r.body;
    key = str(parse(r.body)["api_key"], "key");
  }

  http_response pub(const std::string& method, const std::string& target,
                    const std::string& body = {}) {
    return pub_client.request(method, target, body, bearer(key));
  }

  std::string rotate(const std::string& body = {}) {
    auto r = pub("POST", "/api/v2/webhook-secret", body);
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "webhook_secret");
  }

  std::string campaign(const std::string& url) {
    auto r =
        pub("POST", "/api/v2/voice-campaigns", R"({"name":"hooks","webhook_url":")" + url + "\"}");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "campaign_id");
  }

  // Queues a webhook.test event; answers the delivery's id.
  std::string test_event(const std::string& campaign_id) {
    auto r = pub("POST", "/api/v2/voice-campaigns/" + campaign_id + "/webhook-test");
    EXPECT_EQ(r.status, 202u) << r.body;
    auto d = parse(r.body);
    EXPECT_EQ(str(d["data"], "event_type"), "webhook.test");
    EXPECT_EQ(str(d["data"], "status"), "pending");
    return str(d["data"], "id");
  }

  rapidjson::Document delivery(const std::string& id) {
    auto r = pub("GET", "/api/v2/webhook-deliveries/" + id);
    EXPECT_EQ(r.status, 200u) << r.body;
    return parse(r.body);
  }

  std::string delivery_status(const std::string& id) { return str(delivery(id)["data"], "status"); }

  // The received request carrying this delivery's event.
  std::optional<webhook_receiver::request> received(const webhook_receiver& receiver,
                                                    const std::string& event_id) {
    for (auto& req : receiver.received())
      if (req.headers.count("webhook-id") && req.headers.at("webhook-id") == event_id)
        return req;
    return std::nullopt;
  }

  rapidjson::Document endpoints() {
    auto r = pub("GET", "/api/v2/webhook-endpoints");
    EXPECT_EQ(r.status, 200u) << r.body;
    return parse(r.body);
  }

  service_process& node;
  http_client pub_client;
  http_client op_client;
  std::string key;
};

TEST_F(webhook_test, deliveries_carry_standard_webhooks_headers_signed_with_the_tenants_secret) {
  webhook_receiver receiver;
  auto r = pub("POST", "/api/v2/webhook-secret");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto rotation = parse(r.body);
  const auto secret = str(rotation["data"], "webhook_secret");
  EXPECT_EQ(secret.substr(0, 6), "whsec_");
  EXPECT_TRUE(rotation["data"]["previous_secret_expires_at"].IsNull()) << "the first secret";
  EXPECT_EQ(node.log_contents().find(secret), std::string::npos);
  auto c = campaign(receiver.url());
  auto id = test_event(c);
  std::optional<webhook_receiver::request> req;
  ASSERT_TRUE(eventually([&] {
    return (req = received(receiver, str(delivery(id)["data"], "event_id"))).has_value();
  }));
  const auto& h = req->headers;
  const auto now = unix_now();
  EXPECT_LE(std::llabs(std::stoll(h.at("webhook-timestamp")) - now), 5);
  EXPECT_TRUE(domain::verify_standard_webhook(secret, h.at("webhook-id"), h.at("webhook-timestamp"),
                                              h.at("webhook-signature"), req->body, now, 300))
      << h.at("webhook-signature");
  EXPECT_FALSE(domain::verify_standard_webhook(secret, h.at("webhook-id"),
                                               h.at("webhook-timestamp"), h.at("webhook-signature"),
                                               req->body + " ", now, 300));
  EXPECT_FALSE(domain::verify_standard_webhook(domain::new_webhook_secret(), h.at("webhook-id"),
                                               h.at("webhook-timestamp"), h.at("webhook-signature"),
                                               req->body, now, 300));
  // The first signature still comes, for receivers that check it.
  EXPECT_TRUE(domain::verify_webhook(h.at("x-vcs-signature"), secret, req->body, now, 300));
  EXPECT_EQ(h.at("x-vcs-event"), "webhook.test");
  EXPECT_EQ(h.at("content-type"), "application/json");
  auto body = parse(req->body);
  EXPECT_EQ(str(body, "id"), h.at("webhook-id"));
  EXPECT_EQ(str(body, "type"), "webhook.test");
  EXPECT_EQ(str(body, "timestamp"), str(body, "created_at"));
  EXPECT_EQ(str(body["data"], "campaign_id"), c);
  EXPECT_EQ(str(body["data"], "url"), receiver.url());

  ASSERT_TRUE(eventually([&] { return delivery_status(id) == "delivered"; }));
  auto d = delivery(id);
  EXPECT_EQ(d["data"]["attempts"].GetInt(), 1);
  EXPECT_EQ(d["data"]["last_status"].GetInt(), 200);
  EXPECT_TRUE(d["data"]["next_attempt_at"].IsNull());
  EXPECT_FALSE(d["data"]["delivered_at"].IsNull());
  EXPECT_EQ(str(d["data"]["payload"], "id"), str(d["data"], "event_id"));
  auto e = endpoints();
  ASSERT_EQ(e["meta"]["total"].GetInt(), 1);
  EXPECT_EQ(str(e["data"][0], "url"), receiver.url());
  EXPECT_EQ(str(e["data"][0], "status"), "enabled");
  EXPECT_FALSE(e["data"][0]["last_success_at"].IsNull());
  EXPECT_TRUE(e["data"][0]["failing_since"].IsNull());
}

TEST_F(webhook_test, a_rotated_secret_signs_beside_the_new_one_until_its_grace_period_ends) {
  webhook_receiver receiver;
  const auto first = rotate();
  auto r = pub("POST", "/api/v2/webhook-secret", R"({"grace_period_seconds":2})");
  ASSERT_EQ(r.status, 201u) << r.body;
  const auto second = str(parse(r.body)["data"], "webhook_secret");
  auto expires = domain::parse_iso8601(str(parse(r.body)["data"], "previous_secret_expires_at"));
  ASSERT_TRUE(expires);
  EXPECT_LE(std::chrono::abs(*expires - (domain::now() + 2s)), 1s);
  auto c = campaign(receiver.url());
  auto sent = [&](const std::string& id) {
    std::optional<webhook_receiver::request> req;
    EXPECT_TRUE(eventually([&] {
      return (req = received(receiver, str(delivery(id)["data"], "event_id"))).has_value();
    }));
    return req.value_or(webhook_receiver::request{});
  };
  auto verifies = [&](const webhook_receiver::request& req, const std::string& secret) {
    const auto& h = req.headers;
    return domain::verify_standard_webhook(secret, h.at("webhook-id"), h.at("webhook-timestamp"),
                                           h.at("webhook-signature"), req.body, unix_now(), 300) &&
           domain::verify_webhook(h.at("x-vcs-signature"), secret, req.body, unix_now(), 300);
  };
  auto during = sent(test_event(c));
  EXPECT_TRUE(verifies(during, second));
  EXPECT_TRUE(verifies(during, first)) << "within the grace period";
  EXPECT_EQ(std::count(during.headers.at("webhook-signature").begin(),
                       during.headers.at("webhook-signature").end(), ' '),
            1);

  std::this_thread::sleep_until(std::chrono::system_clock::time_point{
      std::chrono::duration_cast<std::chrono::system_clock::duration>(expires->time_since_epoch() +
                                                                      500ms)});
  auto after = sent(test_event(c));
  EXPECT_TRUE(verifies(after, second));
  EXPECT_FALSE(verifies(after, first)) << "the grace period is over";

  // No grace: the old secret stops at once.
  auto none = pub("POST", "/api/v2/webhook-secret", R"({"grace_period_seconds":0})");
  ASSERT_EQ(none.status, 201u) << none.body;
  EXPECT_TRUE(parse(none.body)["data"]["previous_secret_expires_at"].IsNull());
  const auto third = str(parse(none.body)["data"], "webhook_secret");
  auto now_sent = sent(test_event(c));
  EXPECT_TRUE(verifies(now_sent, third));
  EXPECT_FALSE(verifies(now_sent, second));

  for (const char* bad : {R"({"grace_period_seconds":604801})", R"({"grace_period_seconds":-1})",
                          R"({"grace_period_seconds":"1"})", "[]", "{"}) {
    auto refused = pub("POST", "/api/v2/webhook-secret", bad);
    EXPECT_EQ(refused.status, 400u) << bad << ": " << refused.body;
  }
}

TEST_F(webhook_test, a_failing_endpoint_is_retried_along_the_schedule_then_disabled_and_announced) {
  rotate();
  webhook_receiver failing;
  webhook_receiver healthy;
  failing.respond_with(500);
  auto broken = campaign(failing.url());
  auto fine = campaign(healthy.url());
  // The healthy endpoint is known once it has had a delivery.
  auto first_ok = test_event(fine);
  ASSERT_TRUE(eventually([&] { return delivery_status(first_ok) == "delivered"; }));

  auto id = test_event(broken);
  ASSERT_TRUE(eventually([&] { return delivery_status(id) == "dead"; }));
  auto dead = delivery(id);
  const auto& d = dead["data"];
  EXPECT_EQ(d["attempts"].GetInt(), 3) << "the first attempt and the schedule's two";
  EXPECT_EQ(d["last_status"].GetInt(), 500);
  EXPECT_EQ(str(d, "last_error"), "HTTP 500");
  EXPECT_EQ(failing.received().size(), 3u);
  std::set<std::string> attempts_seen;
  for (const auto& req : failing.received())
    attempts_seen.insert(req.headers.at("x-vcs-delivery-attempt"));
  EXPECT_EQ(attempts_seen, (std::set<std::string>{"1", "2", "3"}));

  // Disabled for failing through a whole schedule; the other endpoint hears.
  auto e = endpoints();
  ASSERT_EQ(e["meta"]["total"].GetInt(), 2);
  for (auto& x : e["data"].GetArray()) {
    if (str(x, "url") != failing.url())
      continue;
    EXPECT_EQ(str(x, "status"), "disabled");
    EXPECT_EQ(str(x, "disabled_reason"), "failing");
    EXPECT_FALSE(x["failing_since"].IsNull());
  }
  std::optional<webhook_receiver::request> notice;
  ASSERT_TRUE(eventually([&] {
    for (auto& req : healthy.received())
      if (req.headers.at("x-vcs-event") == "webhook.endpoint_disabled")
        notice = req;
    return notice.has_value();
  }));
  auto n = parse(notice->body);
  EXPECT_EQ(str(n["data"], "url"), failing.url());
  EXPECT_EQ(str(n["data"], "reason"), "failing");
  auto listed =
      parse(pub("GET", "/api/v2/webhook-deliveries?event_type=webhook.endpoint_disabled").body);
  EXPECT_EQ(listed["meta"]["total"].GetInt(), 2) << "one sent, one kept for the disabled URL";

  // While disabled nothing is sent: a new event is dead at once, unattempted.
  auto skipped = test_event(broken);
  ASSERT_TRUE(eventually([&] { return delivery_status(skipped) == "dead"; }));
  EXPECT_EQ(delivery(skipped)["data"]["attempts"].GetInt(), 0);
  EXPECT_EQ(str(delivery(skipped)["data"], "last_error"), "endpoint disabled");
  EXPECT_EQ(failing.received().size(), 3u);

  // Enabled again and replayed once the receiver recovers: delivered.
  failing.respond_with(204);
  std::string endpoint_id;
  auto listed_endpoints = endpoints();
  for (auto& x : listed_endpoints["data"].GetArray())
    if (str(x, "url") == failing.url())
      endpoint_id = str(x, "id");
  auto enabled = pub("POST", "/api/v2/webhook-endpoints/" + endpoint_id + "/enable");
  ASSERT_EQ(enabled.status, 200u) << enabled.body;
  EXPECT_EQ(str(parse(enabled.body)["data"], "status"), "enabled");
  EXPECT_TRUE(parse(enabled.body)["data"]["failing_since"].IsNull());
  auto replayed = pub("POST", "/api/v2/webhook-deliveries/" + id + "/replay");
  ASSERT_EQ(replayed.status, 202u) << replayed.body;
  EXPECT_EQ(str(parse(replayed.body)["data"], "status"), "pending");
  ASSERT_TRUE(eventually([&] { return delivery_status(id) == "delivered"; }));
  EXPECT_EQ(delivery(id)["data"]["last_status"].GetInt(), 204);
}

TEST_F(webhook_test, an_endpoint_answering_410_gone_is_disabled_at_once) {
  rotate();
  webhook_receiver gone;
  gone.respond_with(410);
  auto id = test_event(campaign(gone.url()));
  ASSERT_TRUE(eventually([&] { return delivery_status(id) == "dead"; }));
  EXPECT_EQ(delivery(id)["data"]["attempts"].GetInt(), 1);
  EXPECT_EQ(str(delivery(id)["data"], "last_error"), "HTTP 410") << "not retried";
  auto e = endpoints();
  ASSERT_EQ(e["meta"]["total"].GetInt(), 1);
  EXPECT_EQ(str(e["data"][0], "status"), "disabled");
  EXPECT_EQ(str(e["data"][0], "disabled_reason"), "gone");
}

// Nothing is sent unsigned, and nothing is lost for want of a secret: the
// delivery waits, saying why, and goes once the tenant makes one.
TEST_F(webhook_test, without_a_secret_a_delivery_waits_unsent_until_one_is_made) {
  webhook_receiver receiver;
  auto id = test_event(campaign(receiver.url()));
  ASSERT_TRUE(eventually([&] { return !delivery(id)["data"]["last_error"].IsNull(); }));
  const auto waiting = delivery(id);
  EXPECT_EQ(str(waiting["data"], "status"), "pending");
  EXPECT_EQ(str(waiting["data"], "last_error"),
            "waiting: the tenant has no webhook signing secret yet; make one "
            "(POST /api/v2/webhook-secret) and this delivery is sent");
  EXPECT_EQ(waiting["data"]["attempts"].GetInt(), 0);
  EXPECT_TRUE(receiver.received().empty());
  EXPECT_EQ(endpoints()["meta"]["total"].GetInt(), 0) << "not the endpoint's failure";
  rotate();
  ASSERT_TRUE(eventually([&] { return delivery_status(id) == "delivered"; }));
  EXPECT_EQ(delivery(id)["data"]["attempts"].GetInt(), 1);
  EXPECT_EQ(receiver.received().size(), 1u);
}

// import.completed when a job is done; import.failed when the database
// refuses a chunk for good (a stored chunk with a row without a phone
// number, written here, which no request can send), with the job failed
// and its stored rows dropped.
TEST_F(webhook_test, imports_announce_that_they_completed_or_failed) {
  rotate();
  webhook_receiver receiver;
  auto c = campaign(receiver.url());
  auto r = pub("POST", "/api/v2/voice-campaigns/" + c + "/leads/bulk",
               R"([{"phone_number":"+14155551000"},{"phone_number":"no"}])");
  ASSERT_EQ(r.status, 200u) << r.body;
  const auto import_id = str(parse(r.body), "import_id");
  auto event_of = [&](const std::string& type) -> std::optional<rapidjson::Document> {
    for (const auto& req : receiver.received()) {
      auto d = parse(req.body);
      if (str(d, "type") == type)
        return d;
    }
    return std::nullopt;
  };
  ASSERT_TRUE(eventually([&] { return event_of("import.completed").has_value(); }));
  auto done = *event_of("import.completed");
  EXPECT_EQ(str(done["data"], "import_id"), import_id);
  EXPECT_EQ(str(done["data"], "campaign_id"), c);
  EXPECT_EQ(str(done["data"], "status"), "done");
  EXPECT_EQ(done["data"]["inserted"].GetInt(), 1);
  EXPECT_EQ(done["data"]["invalid"].GetInt(), 1);
  EXPECT_EQ(done["data"]["rejected"].GetInt(), 1);

  auto sql = storage::open_session(database_url());
  long long job = 0;
  const long long cid = domain::decode_global_id(domain::entity::campaign, c).value_or(0);
  *sql << "INSERT INTO lead_import_jobs (tenant_id, campaign_id, accepted, invalid) "
          "SELECT tenant_id, id, 2, 0 FROM campaigns WHERE id = :c RETURNING id",
      soci::use(cid), soci::into(job);
  // The second row has no phone number, which the database refuses.
  *sql << "INSERT INTO lead_import_chunks (job_id, first_index, row_count, phone_numbers, "
          "first_names, last_names, emails, custom_fields, invalid, invalid_reasons, row_indexes) "
          "VALUES (:j, 0, 2, '{+14155551001,NULL}', '{NULL,x}', '{NULL,NULL}', '{NULL,NULL}', "
          "'{\"{}\",\"{}\"}', '{f,f}', '{NULL,NULL}', '{0,1}')",
      soci::use(job);
  ASSERT_TRUE(eventually([&] { return event_of("import.failed").has_value(); }));
  auto failed = *event_of("import.failed");
  const auto failed_id = domain::encode_global_id(domain::entity::lead_import, job);
  EXPECT_EQ(str(failed["data"], "import_id"), failed_id);
  EXPECT_EQ(str(failed["data"], "status"), "failed");
  EXPECT_EQ(failed["data"]["pending"].GetInt(), 2);
  EXPECT_NE(str(failed["data"], "error").find("refused"), std::string::npos);
  auto read = pub("GET", "/api/v2/voice-campaigns/" + c + "/leads/imports/" + failed_id);
  EXPECT_EQ(str(parse(read.body), "status"), "failed") << read.body;
  long long chunks = -1, leads = -1;
  *sql << "SELECT count(*) FROM lead_import_chunks WHERE job_id = :j", soci::use(job),
      soci::into(chunks);
  *sql << "SELECT count(*) FROM leads WHERE campaign_id = :c", soci::use(cid), soci::into(leads);
  EXPECT_EQ(chunks, 0);
  EXPECT_EQ(leads, 1) << "the refused chunk added nothing";
}

TEST_F(webhook_test, the_deliveries_list_filters_pages_and_refuses_bad_queries) {
  rotate();
  webhook_receiver receiver;
  auto a = campaign(receiver.url());
  auto b = campaign(receiver.url());
  std::vector<std::string> ids{test_event(a), test_event(a), test_event(b)};
  for (const auto& id : ids)
    ASSERT_TRUE(eventually([&] { return delivery_status(id) == "delivered"; }));
  auto list = [&](const std::string& query) {
    auto r = pub("GET", "/api/v2/webhook-deliveries" + query);
    EXPECT_EQ(r.status, 200u) << query << ": " << r.body;
    return parse(r.body);
  };
  auto all = list("");
  EXPECT_EQ(all["meta"]["total"].GetInt(), 3);
  EXPECT_EQ(str(all["data"][0], "id"), ids[2]) << "newest first";
  EXPECT_EQ(list("?campaign_id=" + a)["meta"]["total"].GetInt(), 2);
  EXPECT_EQ(list("?status=delivered&event_type=webhook.test")["meta"]["total"].GetInt(), 3);
  EXPECT_EQ(list("?status=dead")["meta"]["total"].GetInt(), 0);
  auto second = list("?page=2&page_size=2");
  ASSERT_EQ(second["data"].Size(), 1u);
  EXPECT_EQ(str(second["data"][0], "id"), ids[0]);
  EXPECT_EQ(second["meta"]["page_size"].GetInt(), 2);

  auto bad_status = pub("GET", "/api/v2/webhook-deliveries?status=failed");
  EXPECT_EQ(bad_status.status, 400u);
  EXPECT_TRUE(parse(bad_status.body).HasMember("valid_values")) << bad_status.body;
  EXPECT_EQ(pub("GET", "/api/v2/webhook-deliveries?event_type=call.nope").status, 400u);
  EXPECT_EQ(pub("GET", "/api/v2/webhook-deliveries?campaign_id=nope").status, 400u);
  EXPECT_EQ(pub("GET", "/api/v2/webhook-deliveries?page_size=101").status, 400u);
  EXPECT_EQ(pub("GET", "/api/v2/webhook-deliveries/999999999").status, 404u);
  EXPECT_EQ(pub("GET", "/api/v2/webhook-deliveries/x").status, 404u);
  EXPECT_EQ(pub("POST", "/api/v2/webhook-deliveries/999999999/replay").status, 404u);
  EXPECT_EQ(pub("POST", "/api/v2/webhook-endpoints/999999999/enable").status, 404u);

  // A campaign without a URL has nothing to test.
  auto r = pub("POST", "/api/v2/voice-campaigns", R"({"name":"quiet"})");
  auto quiet = str(parse(r.body)["data"], "campaign_id");
  auto refused = pub("POST", "/api/v2/voice-campaigns/" + quiet + "/webhook-test");
  EXPECT_EQ(refused.status, 400u) << refused.body;
  EXPECT_TRUE(parse(refused.body)["errors"].HasMember("webhook_url")) << refused.body;
}

} // namespace
} // namespace vcs::test
