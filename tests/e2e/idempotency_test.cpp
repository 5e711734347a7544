// Idempotency-Key on public writes: a retry with the same key and body gets
// the first response without the work being done again, on any node; the
// same key with another body is refused; errors do not use the key up.

#include "eventually.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

#include <atomic>
#include <map>
#include <memory>
#include <thread>
#include <vector>

namespace vcs::test {
namespace {

class idempotency_test : public service_test {
protected:
  void SetUp() override { sql = storage::open_session(database_url()); }

  http_response write(const std::string& method, const std::string& target, const tenant_info& t,
                      const std::string& body, const std::string& key, http_client* via = nullptr) {
    auto headers = bearer(t.key);
    headers.emplace_back("Idempotency-Key", key);
    return (via ? *via : public_client).request(method, target, body, headers);
  }

  long long campaigns_of(const tenant_info& t) {
    long long n = -1, tenant = tenant_db_id(t);
    *sql << "SELECT count(*) FROM campaigns WHERE tenant_id = :t", soci::use(tenant), soci::into(n);
    return n;
  }

  // Rewrites the stored key's row: `assignments` is an SQL SET list.
  void set_key_row(const tenant_info& t, const std::string& key, const std::string& assignments) {
    long long tenant = tenant_db_id(t);
    *sql << "UPDATE idempotency_keys SET " + assignments +
                " WHERE tenant_id = :t AND idem_key = :k",
        soci::use(tenant), soci::use(key);
  }

  std::string create_campaign(const tenant_info& t) {
    auto r = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"idem"})");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "campaign_id");
  }

  std::unique_ptr<soci::session> sql;
};

TEST_F(idempotency_test, a_retry_replays_the_first_response_without_repeating_the_work) {
  auto t = create_tenant();
  auto first = write("POST", "/api/v2/voice-campaigns", t, R"({"name":"once"})", "create-1");
  ASSERT_EQ(first.status, 201u) << first.body;
  EXPECT_EQ(first.header("idempotent-replayed"), "");
  auto again = write("POST", "/api/v2/voice-campaigns", t, R"({"name":"once"})", "create-1");
  EXPECT_EQ(again.status, 201u);
  EXPECT_EQ(again.body, first.body);
  EXPECT_EQ(again.header("idempotent-replayed"), "true");
  EXPECT_EQ(again.header("content-type"), first.header("content-type"));
  EXPECT_EQ(campaigns_of(t), 1);
  // Without a key, or with another one, the same body is new work.
  EXPECT_EQ(pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"once"})").status, 201u);
  EXPECT_EQ(write("POST", "/api/v2/voice-campaigns", t, R"({"name":"once"})", "create-2").status,
            201u);
  EXPECT_EQ(campaigns_of(t), 3);
}

// A kept response is sealed: the webhook signing secret (shown once) is
// nowhere in the table in plain text, yet a retry gets it back. A response
// kept in plain text before sealing began still replays.
TEST_F(idempotency_test, kept_responses_are_sealed_and_still_replay) {
  auto t = create_tenant();
  auto first = write("POST", "/api/v2/webhook-secret", t, "{}", "rotate-1");
  ASSERT_EQ(first.status, 201u) << first.body;
  const auto secret = str(parse(first.body)["data"], "webhook_secret");
  ASSERT_EQ(secret.rfind("whsec_", 0), 0u) << first.body;
  long long tenant = tenant_db_id(t), plain = -1, sealed = -1;
  *sql << "SELECT count(*) FILTER (WHERE response_body IS NOT NULL OR "
          "position(convert_to(:s, 'UTF8') IN response_ciphertext) > 0), "
          "count(*) FILTER (WHERE response_ciphertext IS NOT NULL) "
          "FROM idempotency_keys WHERE tenant_id = :t",
      soci::use(secret), soci::use(tenant), soci::into(plain), soci::into(sealed);
  EXPECT_EQ(plain, 0);
  EXPECT_EQ(sealed, 1);
  auto again = write("POST", "/api/v2/webhook-secret", t, "{}", "rotate-1");
  EXPECT_EQ(again.status, 201u);
  EXPECT_EQ(again.body, first.body);
  EXPECT_EQ(again.header("idempotent-replayed"), "true");

  set_key_row(t, "rotate-1",
              "response_ciphertext = NULL, response_nonce = NULL, response_body = 'kept before'");
  auto legacy = write("POST", "/api/v2/webhook-secret", t, "{}", "rotate-1");
  EXPECT_EQ(legacy.status, 201u);
  EXPECT_EQ(legacy.body, "kept before");
  EXPECT_EQ(legacy.header("idempotent-replayed"), "true");
}

TEST_F(idempotency_test, the_same_key_with_another_request_is_refused) {
  auto t = create_tenant();
  ASSERT_EQ(write("POST", "/api/v2/voice-campaigns", t, R"({"name":"a"})", "k").status, 201u);
  auto other_body = write("POST", "/api/v2/voice-campaigns", t, R"({"name":"b"})", "k");
  EXPECT_EQ(other_body.status, 422u);
  EXPECT_EQ(str(parse(other_body.body), "message"),
            "Idempotency-Key was already used with a different request");
  // Another route with the same key is another request as well.
  auto id = create_campaign(t);
  auto other_route = write("PATCH", "/api/v2/voice-campaigns/" + id, t, R"({"name":"a"})", "k");
  EXPECT_EQ(other_route.status, 422u);
  EXPECT_EQ(campaigns_of(t), 2);
}

TEST_F(idempotency_test, keys_belong_to_one_tenant) {
  auto a = create_tenant();
  auto b = create_tenant();
  auto ra = write("POST", "/api/v2/voice-campaigns", a, R"({"name":"x"})", "shared");
  auto rb = write("POST", "/api/v2/voice-campaigns", b, R"({"name":"x"})", "shared");
  ASSERT_EQ(ra.status, 201u);
  ASSERT_EQ(rb.status, 201u);
  EXPECT_EQ(rb.header("idempotent-replayed"), "");
  EXPECT_NE(ra.body, rb.body);
  EXPECT_EQ(campaigns_of(a), 1);
  EXPECT_EQ(campaigns_of(b), 1);
}

TEST_F(idempotency_test, an_error_response_does_not_use_the_key_up) {
  auto t = create_tenant();
  auto bad = write("POST", "/api/v2/voice-campaigns", t, R"({"name":""})", "fix-me");
  ASSERT_EQ(bad.status, 400u) << bad.body;
  // The retry runs again (and may correct the body).
  auto fixed = write("POST", "/api/v2/voice-campaigns", t, R"({"name":"ok"})", "fix-me");
  EXPECT_EQ(fixed.status, 201u) << fixed.body;
  EXPECT_EQ(fixed.header("idempotent-replayed"), "");
  EXPECT_EQ(campaigns_of(t), 1);
}

TEST_F(idempotency_test, invalid_keys_are_refused_and_reads_ignore_keys) {
  auto t = create_tenant();
  for (std::string key : {std::string(256, 'k'), std::string{"tab\there"}}) {
    auto r = write("POST", "/api/v2/voice-campaigns", t, R"({"name":"x"})", key);
    EXPECT_EQ(r.status, 400u) << key;
    EXPECT_EQ(str(parse(r.body), "message"),
              "Idempotency-Key must be 1 to 255 printable ASCII characters");
  }
  EXPECT_EQ(campaigns_of(t), 0);
  auto id = create_campaign(t);
  auto headers = bearer(t.key);
  headers.emplace_back("Idempotency-Key", std::string(300, 'k'));
  EXPECT_EQ(public_client.get("/api/v2/voice-campaigns/" + id, headers).status, 200u);
}

TEST_F(idempotency_test, every_kind_of_write_replays) {
  auto t = create_tenant();
  auto id = create_campaign(t);
  auto base = "/api/v2/voice-campaigns/" + id;
  auto lead = write("POST", base + "/leads", t, R"({"phone_number":"+14155550101"})", "lead");
  ASSERT_EQ(lead.status, 201u) << lead.body;
  EXPECT_EQ(write("POST", base + "/leads", t, R"({"phone_number":"+14155550101"})", "lead").body,
            lead.body);
  auto status = write("PATCH", base + "/status", t, R"({"status":"ACTIVE"})", "activate");
  ASSERT_EQ(status.status, 200u) << status.body;
  // Paused by hand in between: the replay answers the first response and
  // does not activate the campaign again.
  ASSERT_EQ(pub("PATCH", base + "/status", t.key, R"({"status":"PAUSED"})").status, 200u);
  auto replay = write("PATCH", base + "/status", t, R"({"status":"ACTIVE"})", "activate");
  EXPECT_EQ(replay.body, status.body);
  EXPECT_EQ(replay.header("idempotent-replayed"), "true");
  EXPECT_EQ(str(parse(pub("GET", base, t.key).body)["data"], "status"), "PAUSED");
  auto removal = R"([{"phone_number":"+14155550101"}])";
  auto removed = write("DELETE", base + "/leads/remove/bulk", t, removal, "remove");
  ASSERT_EQ(removed.status, 200u) << removed.body;
  EXPECT_EQ(write("DELETE", base + "/leads/remove/bulk", t, removal, "remove").body, removed.body);
}

TEST_F(idempotency_test, a_retry_on_another_node_replays) {
  auto t = create_tenant();
  service_process other;
  http_client other_client{"127.0.0.1", other.public_port()};
  auto first = write("POST", "/api/v2/voice-campaigns", t, R"({"name":"n"})", "node");
  ASSERT_EQ(first.status, 201u);
  auto again =
      write("POST", "/api/v2/voice-campaigns", t, R"({"name":"n"})", "node", &other_client);
  EXPECT_EQ(again.status, 201u);
  EXPECT_EQ(again.body, first.body);
  EXPECT_EQ(again.header("idempotent-replayed"), "true");
  EXPECT_EQ(campaigns_of(t), 1);
  other.terminate();
}

// Concurrent retries on two nodes: one request does the work, the others are
// told it is in progress or get its response.
TEST_F(idempotency_test, concurrent_retries_do_the_work_once) {
  auto t = create_tenant();
  service_process other;
  std::atomic<int> created{0}, replayed{0}, in_progress{0}, unexpected{0};
  std::vector<std::thread> threads;
  std::string first_body;
  for (int i = 0; i < 12; ++i)
    threads.emplace_back([&, i] {
      http_client c{"127.0.0.1", i % 2 ? other.public_port() : svc.public_port()};
      auto r = write("POST", "/api/v2/voice-campaigns", t, R"({"name":"race"})", "race", &c);
      if (r.status == 201 && r.header("idempotent-replayed").empty())
        ++created;
      else if (r.status == 201)
        ++replayed;
      else if (r.status == 409)
        ++in_progress;
      else
        ++unexpected;
    });
  for (auto& th : threads)
    th.join();
  EXPECT_EQ(created.load(), 1);
  EXPECT_EQ(replayed.load() + in_progress.load(), 11);
  EXPECT_EQ(unexpected.load(), 0);
  EXPECT_EQ(campaigns_of(t), 1);
  other.terminate();
}

TEST_F(idempotency_test, expired_and_abandoned_keys_run_again) {
  auto t = create_tenant();
  ASSERT_EQ(write("POST", "/api/v2/voice-campaigns", t, R"({"name":"old"})", "old").status, 201u);
  set_key_row(t, "old", "created_at = now() - interval '25 hours'");
  auto after_a_day = write("POST", "/api/v2/voice-campaigns", t, R"({"name":"other"})", "old");
  EXPECT_EQ(after_a_day.status, 201u);
  EXPECT_EQ(after_a_day.header("idempotent-replayed"), "");
  EXPECT_EQ(campaigns_of(t), 2);

  // A claim left by a node that died mid-request: refused while it may still
  // run, taken over once it is older than the claim timeout.
  auto r = write("POST", "/api/v2/voice-campaigns", t, R"({"name":"left"})", "left");
  ASSERT_EQ(r.status, 201u);
  set_key_row(t, "left",
              "status = NULL, response_ciphertext = NULL, response_nonce = NULL, "
              "claimed_at = now()");
  EXPECT_EQ(write("POST", "/api/v2/voice-campaigns", t, R"({"name":"left"})", "left").status, 409u);
  set_key_row(t, "left", "claimed_at = now() - interval '5 minutes'");
  auto taken_over = write("POST", "/api/v2/voice-campaigns", t, R"({"name":"left"})", "left");
  EXPECT_EQ(taken_over.status, 201u);
  EXPECT_EQ(taken_over.header("idempotent-replayed"), "");
  EXPECT_EQ(write("POST", "/api/v2/voice-campaigns", t, R"({"name":"left"})", "left").body,
            taken_over.body);
}

// A write still waiting for a row lock when its deadline passes: the client
// gets 503, the key stays claimed while the write may commit, and once it
// has, a retry gets its response; the lead is added once.
TEST_F(idempotency_test, a_write_past_its_deadline_keeps_its_key_until_its_outcome_is_known) {
  auto t = create_tenant();
  auto campaign = create_campaign(t);
  service_process slow{{{"VCS_ACTOR_TIMEOUT_MS", "1000"}}};
  http_client slow_client{"127.0.0.1", slow.public_port()};
  const std::string target = "/api/v2/voice-campaigns/" + campaign + "/leads";
  const std::string body = R"({"phone_number":"+14155550123","first_name":"Late"})";
  long long tenant = tenant_db_id(t);
  auto leads = [&] {
    long long n = -1;
    *sql << "SELECT count(*) FROM leads WHERE tenant_id = :t", soci::use(tenant), soci::into(n);
    return n;
  };

  auto holder = storage::open_session(database_url());
  soci::transaction held{*holder};
  *holder << "SELECT 1 FROM campaigns WHERE tenant_id = :t FOR UPDATE", soci::use(tenant);
  auto late = write("POST", target, t, body, "late", &slow_client);
  EXPECT_EQ(late.status, 503u) << late.body;
  EXPECT_NE(str(parse(late.body), "message").find("Idempotency-Key"), std::string::npos);
  auto while_unknown = write("POST", target, t, body, "late", &slow_client);
  EXPECT_EQ(while_unknown.status, 409u) << while_unknown.body;
  EXPECT_EQ(leads(), 0);
  held.commit();

  http_response settled;
  EXPECT_TRUE(eventually([&] {
    settled = write("POST", target, t, body, "late", &slow_client);
    return settled.status != 409u;
  }));
  EXPECT_EQ(settled.status, 201u) << settled.body;
  EXPECT_EQ(settled.header("idempotent-replayed"), "true");
  EXPECT_EQ(str(parse(settled.body), "message"), "Lead added successfully");
  EXPECT_EQ(leads(), 1);
  slow.terminate();
}

TEST_F(idempotency_test, the_retention_sweep_purges_expired_keys) {
  auto t = create_tenant();
  auto tenant = tenant_db_id(t);
  ASSERT_EQ(write("POST", "/api/v2/voice-campaigns", t, R"({"name":"p"})", "purge").status, 201u);
  ASSERT_EQ(write("POST", "/api/v2/voice-campaigns", t, R"({"name":"q"})", "keep").status, 201u);
  set_key_row(t, "purge", "created_at = now() - interval '25 hours'");
  service_process sweeping{{{"VCS_RETENTION_INTERVAL_MS", "100"}}};
  auto left = [&] {
    long long n = -1;
    *sql << "SELECT count(*) FROM idempotency_keys WHERE tenant_id = :t", soci::use(tenant),
        soci::into(n);
    return n;
  };
  EXPECT_TRUE(eventually([&] { return left() == 1; }));
  // The key kept is the young one.
  EXPECT_EQ(write("POST", "/api/v2/voice-campaigns", t, R"({"name":"q"})", "keep")
                .header("idempotent-replayed"),
            "true");
}

} // namespace
} // namespace vcs::test
