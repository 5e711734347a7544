// The dialer end to end on real nodes with the simulated provider: the lead
// state machine, attempts and gaps, do-not-call, the schedule, lead-local
// calling hours, the concurrency cap across nodes, usage from calls, and
// signed webhooks.

#include "domain/global_id.hpp"
#include "domain/provider_signature.hpp"
#include "domain/standard_webhook.hpp"
#include "domain/timestamp.hpp"
#include "domain/webhook_signature.hpp"
#include "eventually.hpp"
#include "http_client.hpp"
#include "json_helpers.hpp"
#include "metrics_text.hpp"
#include "service_process.hpp"
#include "storage/database.hpp"
#include "storage/webhook_repository.hpp"
#include "webhook_receiver.hpp"

#include <date/date.h>
#include <date/tz.h>
#include <gtest/gtest.h>
#include <soci/soci.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>
#include <tuple>

namespace vcs::test {
namespace {

using namespace std::chrono_literals;

// Fast simulated calls (ring 50 ms, then 300 ms), 61 billed seconds per
// answered call, quick rounds and webhook retries; webhook receivers and the
// provider fake listen on loopback, which the operator allows here.
std::map<std::string, std::string> dialer_env() {
  return {{"VCS_DIAL_INTERVAL_MS", "100"},      {"VCS_DIAL_IDLE_POLL_SECONDS", "1"},
          {"VCS_SIMULATED_RING_MS", "50"},      {"VCS_SIMULATED_CALL_MS", "300"},
          {"VCS_SIMULATED_TALK_SECONDS", "61"}, {"VCS_SIMULATED_OUTCOMES", "human:1"},
          {"VCS_WEBHOOK_INTERVAL_MS", "50"},    {"VCS_WEBHOOK_RETRY_SCHEDULE", "100ms,100ms"},
          {"VCS_WEBHOOK_TIMEOUT_MS", "2000"},   {"VCS_OUTBOUND_ALLOW", "127.0.0.1/32"}};
}

service_process& dialer_node() {
  static service_process node{dialer_env()};
  return node;
}

class dialer_test : public ::testing::Test {
protected:
  dialer_test()
      : node(dialer_node()), pub_client("127.0.0.1", node.public_port()),
        op_client("127.0.0.1", node.operator_port()) {}

  http_response op(const std::string& method, const std::string& target,
                   const std::string& body = {}) {
    return op_client.request(method, target, body, bearer(node.operator_token()));
  }
  http_response pub(const std::string& method, const std::string& target,
                    const std::string& body = {}) {
    return pub_client.request(method, target, body, bearer(key));
  }

  void SetUp() override {
    static std::atomic<int> counter{0};
    auto r = op("POST", "/admin/v1/tenants",
                R"({"name":"dialer-)" + std::to_string(++counter) + R"(","plan":"PRO"})");
    ASSERT_EQ(r.status, 201u) << r.body;
    auto d = parse(r.body);
    tenant = str(d, "tenant_id");
    key = str(d["api_key"], "key");
    key_id = str(d["api_key"], "id");
  }

  std::string provider(int limit) {
    auto r = pub("POST", "/api/v2/voice-pod",
                 R"({"voice_provider":"provider_b","provider_b_api_key":"k","concurrency_limit":)" +
                     std::to_string(limit) + "}");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "voice_provider_id");
  }

  // A campaign on `provider_id`; `extra` adds fields (",\"x\":1").
  std::string campaign(const std::string& provider_id, const std::string& extra = {}) {
    auto r = pub("POST", "/api/v2/voice-campaigns",
                 R"({"name":"dial","assistant_id":"asst_1","phone_number_id":"pn_1",)"
                 R"("tenant_voice_provider_id":")" +
                     provider_id + "\"" + extra + "}");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "campaign_id");
  }

  // A dial round on demand as of `at`, on another node (a live one).
  static void run_on(service_process& node, const char* at) {
    http_client op{"127.0.0.1", node.operator_port()};
    auto r = op.request("POST", "/admin/v1/dialer/run", R"({"now":")" + std::string{at} + "\"}",
                        bearer(node.operator_token()));
    EXPECT_EQ(r.status, 200u) << r.body;
  }

  // A new lead of `c` whose call the provider refuses (a round on `node`):
  // the attempt is given back and the lead waits for a retry, with the
  // provider's answer as its reason.
  void expect_attempt_given_back(service_process& node, const std::string& c,
                                 const std::string& reason) {
    add_lead(c, "+14155550001");
    run_on(node, "2030-01-02T12:00:01Z");
    ASSERT_TRUE(eventually([&] {
      auto all = leads(c);
      auto it = all.find("+14155550001");
      return it != all.end() && it->second["call_error_reason"].IsString();
    }));
    auto all = leads(c);
    auto& refused = all["+14155550001"];
    EXPECT_EQ(str(refused, "call_status"), "IDLE");
    EXPECT_EQ(refused["attempts_made"].GetInt(), 0);
    EXPECT_NE(str(refused, "call_error_reason").find(reason), std::string::npos);
  }

  // Rounds on demand take every tenant's due campaigns: the request `fake`
  // received about this test's call holds `text` (its callback URL, its
  // agent) in its body.
  static std::optional<webhook_receiver::request> request_holding(const webhook_receiver& fake,
                                                                  const std::string& text) {
    for (const auto& req : fake.received())
      if (req.body.find(text) != std::string::npos)
        return req;
    return std::nullopt;
  }
  static std::optional<webhook_receiver::request> request_naming(const webhook_receiver& fake,
                                                                 const std::string& url) {
    return request_holding(fake, url + "\"");
  }

  // A live node's settings, its provider's API at `fake` (under `base_url`,
  // that provider's setting) and its callbacks named at dialer.example.
  static std::map<std::string, std::string> live_env(const char* base_url,
                                                     const webhook_receiver& fake) {
    auto env = dialer_env();
    env["VCS_VOICE_MODE"] = "live";
    env[base_url] = "http://127.0.0.1:" + std::to_string(fake.port());
    env["VCS_CALLBACK_BASE_URL"] = "https://dialer.example";
    return env;
  }

  // A provider configuration registered through `client` (a live node):
  // its public id.
  std::string registered(http_client& client, const std::string& body) {
    auto r = client.request("POST", "/api/v2/voice-pod", body, bearer(key));
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "voice_provider_id");
  }

  // One call of a campaign as the public API reads it, through `client`.
  rapidjson::Document read_call(http_client& client, const std::string& campaign_id,
                                const std::string& call_id) {
    auto r = client.request("GET", "/api/v2/voice-campaigns/" + campaign_id + "/calls/" + call_id,
                            {}, bearer(key));
    EXPECT_EQ(r.status, 200u) << r.body;
    return parse(r.body);
  }

  static int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  // A provider's callback to `path`, with its signature (when one is given)
  // in the vendor's `header`.
  static http_response post_signed(http_client& client, const std::string& path,
                                   const std::string& body, const char* header,
                                   const std::optional<std::string>& signature) {
    header_list headers{{"Content-Type", "application/json"}};
    if (signature)
      headers.push_back({header, *signature});
    return client.request("POST", path, body, headers);
  }

  void add_lead(const std::string& campaign_id, const std::string& phone,
                const std::string& script = "human") {
    auto r = pub("POST", "/api/v2/voice-campaigns/" + campaign_id + "/leads",
                 R"({"phone_number":")" + phone + R"(","custom_fields":{"simulated_outcomes":")" +
                     script + "\"}}");
    ASSERT_EQ(r.status, 201u) << r.body;
  }

  void set_status(const std::string& campaign_id, const std::string& status) {
    auto r = pub("PATCH", "/api/v2/voice-campaigns/" + campaign_id + "/status",
                 R"({"status":")" + status + "\"}");
    ASSERT_EQ(r.status, 200u) << r.body;
  }

  std::string campaign_status(const std::string& campaign_id) {
    return str(parse(pub("GET", "/api/v2/voice-campaigns/" + campaign_id).body)["data"], "status");
  }

  // The campaign's leads by phone number.
  std::map<std::string, rapidjson::Document> leads(const std::string& campaign_id) {
    auto r = pub("GET", "/api/v2/voice-campaigns/" + campaign_id + "/leads/list?limit=200");
    EXPECT_EQ(r.status, 200u) << r.body;
    auto d = parse(r.body);
    std::map<std::string, rapidjson::Document> out;
    for (auto& l : d["leads"].GetArray()) {
      rapidjson::Document copy;
      copy.CopyFrom(l, copy.GetAllocator());
      out[str(l, "phone_number")] = std::move(copy);
    }
    return out;
  }

  std::string lead_status(const std::string& campaign_id, const std::string& phone) {
    auto all = leads(campaign_id);
    auto it = all.find(phone);
    return it == all.end() ? std::string{} : str(it->second, "call_status");
  }

  rapidjson::Document calls(const std::string& campaign_id) {
    auto r = op("GET", "/admin/v1/tenants/" + tenant + "/campaigns/" + campaign_id + "/calls");
    EXPECT_EQ(r.status, 200u) << r.body;
    return parse(r.body);
  }

  std::size_t call_count(const std::string& campaign_id) {
    return calls(campaign_id)["calls"].Size();
  }

  // One dial round on the node as of `at` (every tenant's due campaigns:
  // count calls per campaign, not the round's total).
  rapidjson::Document run(domain::timestamp at) {
    auto r = op("POST", "/admin/v1/dialer/run", R"({"now":")" + domain::format_utc(at) + "\"}");
    EXPECT_EQ(r.status, 200u) << r.body;
    return parse(r.body);
  }

  // A product and a client subscribed to it whose account configuration
  // holds `campaign_id`; answers the subscription id. `minutes` are the
  // product's: included minutes, and the price of each one more.
  std::string
  subscribe_client(const std::string& campaign_id,
                   const std::string& minutes =
                       R"("min_minutes_included":100,"additional_minute_price":"0.02")") {
    EXPECT_EQ(
        op("POST", "/admin/v1/tenants/" + tenant + "/products",
           R"({"product_id":"prod_d","name":"Dial plan","pricing_model":"flat",)" + minutes +
               R"(,"prices":[{"price_id":"price_d","unit_amount":"49","currency":"USD","interval":"month"}]})")
            .status,
        201u);
    auto r = pub("POST", "/api/v2/clients/create",
                 R"({"client_users":[{"email":"dial@acme.io","password":"plum orchard 1"}],
                     "client_details":{"name":"Dial","email":"dial@acme.io"},
                     "client_asset_group":{"name":"g"},
                     "billing_provider":{"type":"processor","selected_product":{"product_id":"prod_d","price_ids":["price_d"]}},
                     "assigned_resources":{"campaign":[")" +
                     campaign_id + R"("]}})");
    EXPECT_EQ(r.status, 201u) << r.body;
    client_id = str(parse(r.body)["data"], "client_id");
    auto subs = parse(pub("GET", "/api/v2/external-billing/subscriptions").body);
    return str(subs["data"][0], "id");
  }

  void set_priority(const std::string& campaign_id, const std::string& phone, int priority,
                    const std::string& next_attempt_after = {}) {
    auto id = domain::decode_global_id(domain::entity::campaign, campaign_id);
    auto sql = storage::open_session(database_url());
    std::string next = next_attempt_after;
    soci::indicator ind = next.empty() ? soci::i_null : soci::i_ok;
    *sql << "UPDATE leads SET priority = :p, next_attempt_after = CAST(:n AS timestamptz) "
            "WHERE campaign_id = :c AND phone_number = :ph",
        soci::use(priority), soci::use(next, ind), soci::use(static_cast<long long>(*id)),
        soci::use(phone);
  }

  static domain::timestamp at(const char* text) { return *domain::parse_iso8601(text); }

  // The campaign's pause_reason; empty when null.
  std::string pause_reason(const std::string& campaign_id) {
    auto d = parse(pub("GET", "/api/v2/voice-campaigns/" + campaign_id).body);
    return d["data"]["pause_reason"].IsNull() ? std::string{} : str(d["data"], "pause_reason");
  }

  // A subscription payment request of the client's, due in 2099; answers its id.
  std::string issue_payment(const std::string& subscription) {
    auto issued = op("POST", "/admin/v1/payment-requests",
                     R"({"client_id":")" + client_id + R"(","subscription_id":")" + subscription +
                         R"(","type":"SUBSCRIPTION","amount":"49.00","currency":"USD",)"
                         R"("due_date":"2099-01-10T00:00:00Z","period_start":"2026-11-01",)"
                         R"("period_end":"2026-12-01"})");
    EXPECT_EQ(issued.status, 201u) << issued.body;
    return str(parse(issued.body), "id");
  }

  void set_payment(const std::string& payment, const std::string& status) {
    auto r = pub("PATCH", "/api/v2/external-billing/payment-requests/" + payment + "/update",
                 R"({"status":")" + status + R"("})");
    ASSERT_EQ(r.status, 200u) << r.body;
  }

  // Adds `minutes` of add-on minutes to the client's subscription.
  void add_minutes(const char* minutes) {
    auto r = op("POST", "/admin/v1/usage/addon",
                R"({"client_id":")" + client_id + R"(","minutes":")" + minutes + "\"}");
    ASSERT_EQ(r.status, 200u) << r.body;
  }

  // Each outcome `kind`'s vendor documents, through a fake of its API
  // (vendor_case_of).
  void expect_each_outcome_of(const std::string& kind);

  service_process& node;
  http_client pub_client;
  http_client op_client;
  std::string tenant;
  std::string key;
  std::string key_id;
  std::string client_id;
};

TEST_F(dialer_test, an_answered_lead_completes_and_its_call_is_recorded) {
  auto c = campaign(provider(5));
  add_lead(c, "+14155552671", "human");
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "COMPLETED"; }));
  auto all = leads(c);
  auto& l = all["+14155552671"];
  EXPECT_TRUE(l["answered"].GetBool());
  EXPECT_EQ(str(l, "answer_type"), "human");
  EXPECT_EQ(l["attempts_made"].GetInt(), 1);
  EXPECT_TRUE(l["answered_at"].IsString());
  EXPECT_TRUE(l["next_attempt_after"].IsNull());
  EXPECT_TRUE(l["call_error_reason"].IsNull());
  auto list = calls(c);
  ASSERT_EQ(list["calls"].Size(), 1u);
  auto& call = list["calls"][0];
  EXPECT_EQ(str(call, "status"), "COMPLETED");
  EXPECT_EQ(str(call, "outcome"), "human");
  EXPECT_EQ(call["duration_seconds"].GetInt(), 61);
  EXPECT_EQ(call["attempt"].GetInt(), 1);
  // Answered leads are never called again.
  run(domain::now() + 24h);
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(calls(c)["calls"].Size(), 1u);
}

// The event feed holds every event, webhook_url or not, in commit order:
// read a page at a time by its cursor, nothing comes twice and nothing is
// skipped (the tenant is new: its first event is its own); a key held to
// another campaign sees none.
TEST_F(dialer_test, the_event_feed_holds_every_event_once_in_order_page_by_page) {
  auto c = campaign(provider(5));
  add_lead(c, "+14155552671", "human");
  add_lead(c, "+14155552672", "human");
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] {
    return lead_status(c, "+14155552671") == "COMPLETED" &&
           lead_status(c, "+14155552672") == "COMPLETED";
  }));
  auto whole = parse(pub("GET", "/api/v2/events?limit=1000").body);
  std::vector<std::string> ids, types;
  for (const auto& e : whole["data"].GetArray()) {
    ids.push_back(str(e, "id"));
    types.push_back(str(e, "type"));
    EXPECT_EQ(str(e, "campaign_id"), c);
    EXPECT_EQ(str(e["payload"], "id"), str(e, "id"));
    // A SINGLE campaign calls from its own number.
    if (e["payload"]["data"].HasMember("attempt"))
      EXPECT_EQ(str(e["payload"]["data"], "phone_number_id"), "pn_1");
  }
  ASSERT_FALSE(types.empty());
  for (const char* type : {"call.started", "call.ended", "lead.answered"})
    EXPECT_EQ(std::count(types.begin(), types.end(), type), 2) << type;
  // One at a time by cursor: the same events in the same order.
  std::vector<std::string> paged;
  std::string cursor;
  for (int i = 0; i < 100; ++i) {
    auto page = parse(
        pub("GET", "/api/v2/events?limit=1" + (cursor.empty() ? "" : "&after=" + cursor)).body);
    cursor = str(page, "next_cursor");
    if (page["data"].Empty())
      break;
    paged.push_back(str(page["data"][0], "id"));
    EXPECT_EQ(str(page["data"][0], "cursor"), cursor);
  }
  EXPECT_EQ(paged, ids);
  // At the end the cursor stays where it is.
  auto end = parse(pub("GET", "/api/v2/events?after=" + cursor).body);
  EXPECT_EQ(end["data"].Size(), 0u);
  EXPECT_EQ(str(end, "next_cursor"), cursor);
  auto bad = pub("GET", "/api/v2/events?after=yesterday");
  EXPECT_EQ(bad.status, 400u) << bad.body;
  EXPECT_EQ(str(parse(bad.body), "message"), "Invalid cursor");
  // A key held to another campaign reads none of these.
  auto other = campaign(provider(1));
  auto scoped = pub("POST", "/api/v2/api-keys",
                    R"({"name":"other only","campaign_ids":[")" + other + R"("]})");
  ASSERT_EQ(scoped.status, 201u) << scoped.body;
  http_client c2{"127.0.0.1", node.public_port()};
  auto none = c2.request("GET", "/api/v2/events?limit=1000", {},
                         bearer(str(parse(scoped.body)["data"], "key")));
  EXPECT_EQ(parse(none.body)["data"].Size(), 0u) << none.body;
}

TEST_F(dialer_test, voicemail_counts_as_answered_only_when_the_campaign_says_so) {
  auto p = provider(5);
  auto counted = campaign(p, R"(,"consider_voicemail_as_answered":true)");
  auto not_counted = campaign(p, R"(,"min_gap_between_attempts":30)");
  add_lead(counted, "+14155552671", "voicemail");
  add_lead(not_counted, "+14155552671", "voicemail");
  auto before = domain::now();
  set_status(counted, "ACTIVE");
  set_status(not_counted, "ACTIVE");
  ASSERT_TRUE(eventually([&] { return lead_status(counted, "+14155552671") == "COMPLETED"; }));
  EXPECT_EQ(str(leads(counted)["+14155552671"], "answer_type"), "voicemail");
  ASSERT_TRUE(eventually([&] {
    return calls(not_counted)["calls"].Size() == 1 &&
           lead_status(not_counted, "+14155552671") == "IDLE";
  }));
  auto all = leads(not_counted);
  auto& l = all["+14155552671"];
  EXPECT_FALSE(l["answered"].GetBool());
  EXPECT_EQ(str(l, "answer_type"), "");
  EXPECT_EQ(str(l, "call_error_reason"), "voicemail");
  EXPECT_EQ(l["attempts_made"].GetInt(), 1);
  // The next attempt waits min_gap_between_attempts (minutes).
  auto next = domain::parse_iso8601(str(l, "next_attempt_after"));
  ASSERT_TRUE(next);
  EXPECT_GE(*next, before + 30min);
  EXPECT_LE(*next, domain::now() + 30min);
}

TEST_F(dialer_test, retries_wait_the_gap_and_stop_at_max_call_attempts) {
  auto c = campaign(provider(5), R"(,"max_call_attempts":2,"min_gap_between_attempts":10)");
  add_lead(c, "+14155552671", "busy");
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually(
      [&] { return calls(c)["calls"].Size() == 1 && lead_status(c, "+14155552671") == "IDLE"; }));
  // Within the gap nothing is called.
  run(domain::now() + 9min);
  EXPECT_EQ(call_count(c), 1u);
  run(domain::now() + 11min);
  EXPECT_EQ(call_count(c), 2u);
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "FAILED"; }));
  auto all = leads(c);
  EXPECT_EQ(all["+14155552671"]["attempts_made"].GetInt(), 2);
  EXPECT_EQ(str(all["+14155552671"], "call_error_reason"), "busy");
  run(domain::now() + 48h);
  EXPECT_EQ(call_count(c), 2u);
}

TEST_F(dialer_test, an_invalid_number_outcome_flags_the_lead_for_good) {
  auto c = campaign(provider(5));
  add_lead(c, "+14155552671", "invalid_number");
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "FAILED"; }));
  auto all = leads(c);
  EXPECT_TRUE(all["+14155552671"]["invalid"].GetBool());
  EXPECT_EQ(str(all["+14155552671"], "call_error_reason"), "invalid_number");
}

TEST_F(dialer_test, do_not_call_leads_and_the_tenant_list_are_never_called) {
  EXPECT_EQ(pub("POST", "/api/v2/do-not-call", R"({"phone_number":"+14155550002"})").status, 201u);
  EXPECT_EQ(pub("POST", "/api/v2/do-not-call", R"({"phone_number":"+14155550002"})").status, 200u);
  auto bad = pub("POST", "/api/v2/do-not-call", R"({"phone_number":"415-555"})");
  EXPECT_EQ(bad.status, 400u);
  EXPECT_EQ(str(parse(bad.body), "message"), "Invalid data");
  EXPECT_TRUE(
      parse(pub("GET", "/api/v2/do-not-call/+14155550002").body)["data"]["do_not_call"].GetBool());
  auto c = campaign(provider(5));
  add_lead(c, "+14155550001");
  add_lead(c, "+14155550002");
  add_lead(c, "+14155552671");
  auto r = pub("PATCH", "/api/v2/voice-campaigns/" + c + "/leads/update/bulk",
               R"([{"phone_number":"+14155550001","do_not_call":true}])");
  ASSERT_EQ(r.status, 200u) << r.body;
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "COMPLETED"; }));
  run(domain::now() + 1h);
  std::this_thread::sleep_for(500ms);
  auto list = calls(c);
  ASSERT_EQ(list["calls"].Size(), 1u);
  EXPECT_EQ(str(list["calls"][0], "phone_number"), "+14155552671");
  EXPECT_EQ(lead_status(c, "+14155550001"), "IDLE");
  EXPECT_EQ(lead_status(c, "+14155550002"), "IDLE");
  // Off the list, the number is called.
  EXPECT_EQ(pub("DELETE", "/api/v2/do-not-call/+14155550002").status, 200u);
  EXPECT_EQ(pub("DELETE", "/api/v2/do-not-call/+14155550002").status, 404u);
  run(domain::now() + 2h);
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155550002") == "COMPLETED"; }));
  EXPECT_EQ(lead_status(c, "+14155550001"), "IDLE");
}

TEST_F(dialer_test, a_scheduled_campaign_starts_and_ends_on_its_dates_in_its_zone) {
  // Asia/Tokyo is UTC+9: 2030-01-01 starts at 2029-12-31T15:00:00Z and
  // 2030-01-02 ends at 2030-01-02T15:00:00Z.
  auto c = campaign(provider(5), R"(,"start_date":"2030-01-01","end_date":"2030-01-02",)"
                                 R"("timezone":"Asia/Tokyo")");
  add_lead(c, "+14155552671");
  set_status(c, "SCHEDULED");
  run(at("2029-12-31T14:59:59Z"));
  EXPECT_EQ(campaign_status(c), "SCHEDULED");
  EXPECT_EQ(call_count(c), 0u);
  run(at("2029-12-31T15:00:00Z"));
  EXPECT_EQ(campaign_status(c), "ACTIVE");
  EXPECT_EQ(call_count(c), 1u);
  run(at("2030-01-02T14:59:59Z"));
  EXPECT_EQ(campaign_status(c), "ACTIVE");
  run(at("2030-01-02T15:00:00Z"));
  EXPECT_EQ(campaign_status(c), "ENDED");
}

TEST_F(dialer_test, the_daily_window_applies_in_each_lead_zone_when_asked) {
  // 2030-01-07 is a Monday; 15:00Z is 10:00 in New York and 07:00 in Los
  // Angeles; 17:30Z is 12:30 and 09:30.
  // The start date keeps the rounds of the clock out of it.
  auto c = campaign(provider(5), R"(,"lead_local_time":true,"daily_start_time":"09:00",)"
                                 R"("daily_end_time":"17:00","timezone":"UTC",)"
                                 R"("start_date":"2030-01-01")");
  add_lead(c, "+12125550123"); // New York
  add_lead(c, "+13105550123"); // Los Angeles
  set_status(c, "ACTIVE");
  run(at("2030-01-07T15:00:00Z"));
  EXPECT_EQ(call_count(c), 1u);
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+12125550123") == "COMPLETED"; }));
  EXPECT_EQ(lead_status(c, "+13105550123"), "IDLE");
  run(at("2030-01-07T17:30:00Z"));
  EXPECT_EQ(call_count(c), 2u);
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+13105550123") == "COMPLETED"; }));
}

TEST_F(dialer_test, calls_in_flight_never_exceed_the_provider_limit_across_nodes) {
  service_process second{dialer_env()};
  auto p = provider(2);
  auto provider_id = domain::decode_global_id(domain::entity::voice_provider, p);
  ASSERT_TRUE(provider_id);
  std::vector<std::string> campaigns;
  for (int i = 0; i < 4; ++i) {
    campaigns.push_back(campaign(p));
    for (int j = 0; j < 4; ++j)
      add_lead(campaigns.back(), "+1415555" + std::to_string(1000 + i * 10 + j));
  }
  std::atomic<bool> sampling{true};
  std::atomic<long long> most{0};
  std::thread sampler([&] {
    auto sql = storage::open_session(database_url());
    while (sampling) {
      long long open = 0;
      const long long provider = *provider_id; // soci binds by reference
      *sql << "SELECT count(*) FROM calls WHERE voice_provider_id = :p AND ended_at IS NULL",
          soci::use(provider), soci::into(open);
      most = std::max(most.load(), open);
      std::this_thread::sleep_for(5ms);
    }
  });
  for (const auto& c : campaigns)
    set_status(c, "ACTIVE");
  bool all_done = eventually(
      [&] {
        for (const auto& c : campaigns)
          for (auto& [phone, lead] : leads(c))
            if (str(lead, "call_status") != "COMPLETED")
              return false;
        return true;
      },
      60s);
  sampling = false;
  sampler.join();
  EXPECT_TRUE(all_done);
  EXPECT_EQ(most.load(), 2);
  std::size_t total = 0;
  for (const auto& c : campaigns)
    total += calls(c)["calls"].Size();
  EXPECT_EQ(total, 16u);
}

TEST_F(dialer_test, call_minutes_are_recorded_once_as_the_client_usage) {
  auto c = campaign(provider(5));
  subscribe_client(c);
  add_lead(c, "+14155552671", "human");
  add_lead(c, "+14155550001", "no_answer");
  set_status(c, "ACTIVE");
  // 61 s answered → 1.02 minutes; the unanswered call costs nothing.
  ASSERT_TRUE(eventually([&] {
    auto u = parse(pub("GET", "/api/v2/external-billing/usage").body);
    return u["data"].Size() == 1 && str(u["data"][0], "minutes_included_used") == "1.02";
  }));
  ASSERT_TRUE(eventually([&] {
    auto list = calls(c);
    if (list["calls"].Size() != 2)
      return false;
    for (auto& call : list["calls"].GetArray())
      if (!call["usage_recorded"].GetBool())
        return false;
    return true;
  }));
  std::this_thread::sleep_for(500ms);
  auto u = parse(pub("GET", "/api/v2/external-billing/usage").body);
  EXPECT_EQ(str(u["data"][0], "minutes_included_used"), "1.02");
}

// The dialer's events, signed both ways (webhook_test covers retries,
// endpoints and the tenant's routes).
TEST_F(dialer_test, the_dialers_events_are_signed) {
  webhook_receiver receiver;
  auto s = op("POST", "/admin/v1/tenants/" + tenant + "/webhook-secret");
  ASSERT_EQ(s.status, 201u) << s.body;
  auto secret = str(parse(s.body)["data"], "webhook_secret");
  EXPECT_EQ(node.log_contents().find(secret), std::string::npos);
  auto c = campaign(provider(5), R"(,"webhook_url":")" + receiver.url() + "\"");
  add_lead(c, "+14155552671", "human");
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] { return receiver.received().size() >= 4; }));
  std::set<std::string> types;
  auto now_unix = std::chrono::duration_cast<std::chrono::seconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  for (const auto& req : receiver.received()) {
    const auto& h = req.headers;
    EXPECT_TRUE(domain::verify_standard_webhook(secret, h.at("webhook-id"),
                                                h.at("webhook-timestamp"),
                                                h.at("webhook-signature"), req.body, now_unix, 300))
        << h.at("webhook-signature");
    auto sig = h.at("x-vcs-signature");
    EXPECT_TRUE(domain::verify_webhook(sig, secret, req.body, now_unix, 300)) << sig;
    EXPECT_FALSE(domain::verify_webhook(sig, secret, req.body + " ", now_unix, 300));
    EXPECT_FALSE(domain::verify_webhook(sig, "whsec_other", req.body, now_unix, 300));
    auto d = parse(req.body);
    types.insert(str(d, "type"));
    EXPECT_EQ(str(d, "type"), h.at("x-vcs-event"));
    EXPECT_EQ(str(d, "id"), h.at("webhook-id"));
    EXPECT_EQ(str(d["data"], "campaign_id"), c);
    if (str(d, "type") != "campaign.activated")
      EXPECT_EQ(str(d["data"]["custom_fields"], "simulated_outcomes"), "human")
          << "the lead's custom fields ride with its call and lead events";
  }
  // The start by hand is an event too.
  EXPECT_EQ(types, (std::set<std::string>{"campaign.activated", "call.started", "call.ended",
                                          "lead.answered"}));
}

// A provider_a campaign whose calling entity is a squad or a workflow starts
// its calls with that id, the lead's fields as every member's variables.
TEST_F(dialer_test, provider_a_squads_and_workflows_are_called_by_their_own_ids) {
  webhook_receiver fake;
  fake.respond_with(201, R"({"id":"pa-call-{n}","status":"queued"})");
  auto env = live_env("VCS_PROVIDER_A_BASE_URL", fake);
  service_process live{env};
  auto r = pub("POST", "/api/v2/voice-pod",
               R"({"voice_provider":"provider_a","provider_a_private_key":"sk-entity",)"
               R"("provider_a_public_key":"pk","provider_a_organization_id":"org"})");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto p = str(parse(r.body)["data"], "voice_provider_id");
  struct entity {
    const char* name;
    const char* id_member;
    const char* overrides_member;
  };
  for (const entity& e : {entity{"SQUAD", "squadId", "squadOverrides"},
                          entity{"WORKFLOW", "workflowId", "workflowOverrides"}}) {
    SCOPED_TRACE(e.name);
    const std::string id = std::string{"ent_"} + e.name + "_" + tenant;
    auto made =
        pub("POST", "/api/v2/voice-campaigns",
            R"({"name":"entity","assistant_id":")" + id +
                R"(","phone_number_id":"pn_1","tenant_voice_provider_id":")" + p +
                R"(","provider_a_calling_entity":")" + e.name + R"(","start_date":"2030-01-01"})");
    ASSERT_EQ(made.status, 201u) << made.body;
    auto c = str(parse(made.body)["data"], "campaign_id");
    add_lead(c, "+14155552691");
    set_status(c, "ACTIVE");
    run_on(live, "2030-01-02T12:00:00Z");
    auto ours = [&] { return request_holding(fake, "\"" + id + "\""); };
    ASSERT_TRUE(eventually([&] { return ours().has_value(); }));
    auto body = parse(ours()->body);
    EXPECT_EQ(str(body, e.id_member), id);
    EXPECT_FALSE(body.HasMember("assistantId"));
    EXPECT_FALSE(body.HasMember("assistantOverrides"));
    EXPECT_EQ(str(body[e.overrides_member]["variableValues"], "phone_number"), "+14155552691");
  }
  EXPECT_EQ(live.terminate(), 0);
}

// provider_a live: the call request as its API documents it, then its
// server messages into the callback route, authenticated by the secret.
TEST_F(dialer_test, provider_a_calls_go_through_its_api_and_callbacks_drive_the_lead) {
  webhook_receiver fake;
  fake.respond_with(201, R"({"id":"pa-call-1","status":"queued"})");
  auto env = live_env("VCS_PROVIDER_A_BASE_URL", fake);
  service_process live{env};
  http_client live_pub{"127.0.0.1", live.public_port()};
  http_client live_op{"127.0.0.1", live.operator_port()};
  auto r =
      live_pub.request("POST", "/api/v2/voice-pod",
                       R"({"voice_provider":"provider_a","provider_a_private_key":"sk-live-test",)"
                       R"("provider_a_public_key":"pk","provider_a_organization_id":"org"})",
                       bearer(key));
  ASSERT_EQ(r.status, 201u) << r.body;
  auto p = str(parse(r.body)["data"], "voice_provider_id");
  auto vp = std::to_string(*domain::decode_global_id(domain::entity::voice_provider, p));
  // The other test node simulates: a start date far ahead keeps its rounds
  // of the clock out, and this node's rounds run as of dates after it.
  auto c = campaign(p, R"(,"start_date":"2030-01-01")");
  add_lead(c, "+14155552671");
  set_status(c, "ACTIVE");
  auto run_live = [&](const char* at) { run_on(live, at); };
  run_live("2030-01-02T12:00:00Z");
  const std::string callback_url = "https://dialer.example/webhooks/provider-a/" + vp;
  auto ours = [&] { return request_naming(fake, callback_url); };
  ASSERT_TRUE(eventually([&] { return ours().has_value(); }));
  // This node's own counts (a new node: they start at 0).
  auto counted = [&](const char* series) {
    auto r = live_op.get("/metrics", bearer(live.operator_token()));
    EXPECT_EQ(r.status, 200u);
    return metric_value(r.body, series);
  };
  EXPECT_GE(counted("vcs_dialer_calls_placed_total"), 1);
  auto sent = *ours();
  EXPECT_EQ(sent.target, "/call");
  EXPECT_EQ(sent.headers["authorization"], "Bearer sk-live-test");
  auto body = parse(sent.body);
  EXPECT_EQ(str(body, "assistantId"), "asst_1");
  EXPECT_EQ(str(body, "phoneNumberId"), "pn_1");
  EXPECT_EQ(str(body["customer"], "number"), "+14155552671");
  // The lead's fields, for the assistant's {{variables}}.
  const auto& variables = body["assistantOverrides"]["variableValues"];
  EXPECT_EQ(str(variables, "phone_number"), "+14155552671");
  EXPECT_EQ(str(variables, "simulated_outcomes"), "human");
  EXPECT_EQ(str(body["server"], "url"), callback_url);
  auto secret = str(body["server"], "secret");
  EXPECT_EQ(secret.size(), 64u);
  auto call_id = str(body["metadata"], "vcs_call_id");
  EXPECT_EQ(live.log_contents().find("sk-live-test"), std::string::npos);

  auto callback = [&](const std::string& message, const std::string& with_secret) {
    return live_pub.request("POST", "/webhooks/provider-a/" + vp, message,
                            {{"X-Vapi-Secret", with_secret}, {"Content-Type", "application/json"}});
  };
  // provider_a's call object carries the metadata given at creation.
  const std::string ringing =
      R"({"message":{"type":"status-update","status":"ringing","call":{"id":"pa-call-1",)"
      R"("metadata":{"vcs_call_id":")" +
      call_id + R"("}}}})";
  EXPECT_EQ(callback(ringing, "wrong").status, 401u);
  EXPECT_EQ(callback(ringing, std::string(64, '0')).status, 401u);
  EXPECT_EQ(lead_status(c, "+14155552671"), "QUEUED");
  auto ok = callback(ringing, secret);
  ASSERT_EQ(ok.status, 200u) << ok.body;
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "IN_PROGRESS"; }));
  // The report in provider_a's current shape: analysis and artifact.
  const std::string ended =
      R"({"message":{"type":"end-of-call-report","endedReason":"customer-ended-call",)"
      R"("durationSeconds":42.5,"cost":0.5,"analysis":{"summary":"Booked <b>Tuesday</b>.",)"
      R"("successEvaluation":true,"structuredData":{"booked":true,"day":"Tuesday"}},)"
      R"("artifact":{"transcript":"AI: Hi\nUser: Hi","recordingUrl":"https://rec.example/1.wav"},)"
      R"("call":{"id":"pa-call-1","metadata":{"vcs_call_id":")" +
      call_id + R"("}}}})";
  {
    // Acknowledged only once applied: a report that cannot be applied within
    // the deadline (the campaign row is locked here) is answered 503, so the
    // provider sends it again; the retry below is then applied once.
    auto slow_env = env;
    slow_env["VCS_ACTOR_TIMEOUT_MS"] = "1000";
    service_process slow{slow_env};
    http_client slow_pub{"127.0.0.1", slow.public_port()};
    long long campaign_db = *domain::decode_global_id(domain::entity::campaign, c);
    auto holder = storage::open_session(database_url());
    soci::transaction held{*holder};
    *holder << "SELECT 1 FROM campaigns WHERE id = :c FOR UPDATE", soci::use(campaign_db);
    auto unapplied =
        slow_pub.request("POST", "/webhooks/provider-a/" + vp, ended,
                         {{"X-Vapi-Secret", secret}, {"Content-Type", "application/json"}});
    EXPECT_EQ(unapplied.status, 503u) << unapplied.body;
    EXPECT_EQ(lead_status(c, "+14155552671"), "IN_PROGRESS");
    held.commit();
    EXPECT_EQ(slow.terminate(), 0);
  }
  ASSERT_EQ(callback(ended, secret).status, 200u);
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "COMPLETED"; }));
  // A repeated report changes nothing.
  ASSERT_EQ(callback(ended, secret).status, 200u);
  std::this_thread::sleep_for(300ms);
  auto list = calls(c);
  ASSERT_EQ(list["calls"].Size(), 1u);
  EXPECT_EQ(str(list["calls"][0], "outcome"), "human");
  EXPECT_EQ(list["calls"][0]["duration_seconds"].GetInt(), 43);
  // The operator list shows the tenant's call record, with its older names.
  EXPECT_EQ(list["calls"][0]["billed_seconds"].GetInt(), 43);
  EXPECT_EQ(str(list["calls"][0], "lead_id"), str(list["calls"][0], "campaign_lead_id"));
  EXPECT_EQ(leads(c)["+14155552671"]["attempts_made"].GetInt(), 1);
  // What the report said, as it was sent.
  auto read = live_pub.request("GET", "/api/v2/voice-campaigns/" + c + "/calls/" + call_id, {},
                               bearer(key));
  ASSERT_EQ(read.status, 200u) << read.body;
  auto call = parse(read.body);
  const auto& got = call["data"];
  EXPECT_EQ(str(got, "summary"), "Booked <b>Tuesday</b>.");
  EXPECT_EQ(str(got, "transcript"), "AI: Hi\nUser: Hi");
  EXPECT_EQ(str(got, "recording_url"), "https://rec.example/1.wav");
  EXPECT_EQ(str(got, "success_evaluation"), "true");
  EXPECT_TRUE(got["structured_data"]["booked"].GetBool());
  EXPECT_EQ(str(got["structured_data"], "day"), "Tuesday");
  EXPECT_EQ(str(got, "ended_reason"), "customer-ended-call");
  EXPECT_EQ(str(got, "cost"), "0.5000");

  // The provider refuses: the attempt is given back and retried later.
  fake.respond_with(402, R"({"message":"Insufficient credits"})");
  expect_attempt_given_back(live, c, "provider_a: HTTP 402");
  EXPECT_GE(counted("vcs_dialer_calls_refused_total"), 1);
  EXPECT_EQ(live.terminate(), 0);
}

// provider_b live: the call request as its API documents it, then its call
// events into the callback route, authenticated by their signature.
TEST_F(dialer_test, provider_b_calls_go_through_its_api_and_signed_events_drive_the_lead) {
  webhook_receiver fake;
  fake.respond_with(201, R"({"call_id":"rb-call-1","call_status":"registered"})");
  auto env = live_env("VCS_PROVIDER_B_BASE_URL", fake);
  service_process live{env};
  http_client live_pub{"127.0.0.1", live.public_port()};
  const std::string api_key = "key_live_b_secret";
  auto p = registered(live_pub, R"({"voice_provider":"provider_b","provider_b_api_key":")" +
                                    api_key + R"("})");
  auto vp = std::to_string(*domain::decode_global_id(domain::entity::voice_provider, p));
  // As in the provider_a test: a start date far ahead keeps the simulating
  // node's rounds out.
  auto c = campaign(p, R"(,"start_date":"2030-01-01")");
  {
    auto r = pub("POST", "/api/v2/voice-campaigns/" + c + "/leads",
                 R"({"phone_number":"+14155552671","first_name":"Ada","email":"ada@example.com",)"
                 R"("custom_fields":{"plan":"gold","visits":3,"first_name":"not this"}})");
    ASSERT_EQ(r.status, 201u) << r.body;
  }
  set_status(c, "ACTIVE");
  auto run_live = [&](const char* at) { run_on(live, at); };
  run_live("2030-01-02T12:00:00Z");
  const std::string webhook_url = "https://dialer.example/webhooks/provider-b/" + vp;
  auto ours = [&] { return request_naming(fake, webhook_url); };
  ASSERT_TRUE(eventually([&] { return ours().has_value(); }));
  auto sent = *ours();
  EXPECT_EQ(sent.target, "/v2/create-phone-call");
  EXPECT_EQ(sent.headers["authorization"], "Bearer " + api_key);
  auto body = parse(sent.body);
  EXPECT_EQ(str(body, "from_number"), "pn_1");
  EXPECT_EQ(str(body, "to_number"), "+14155552671");
  EXPECT_EQ(str(body, "override_agent_id"), "asst_1");
  // The lead's fields, for the agent's {{variables}}: strings, its own
  // fields before a custom field of the same name.
  const auto& variables = body["retell_llm_dynamic_variables"];
  EXPECT_EQ(str(variables, "phone_number"), "+14155552671");
  EXPECT_EQ(str(variables, "first_name"), "Ada");
  EXPECT_EQ(str(variables, "email"), "ada@example.com");
  EXPECT_EQ(str(variables, "plan"), "gold");
  EXPECT_EQ(str(variables, "visits"), "3");
  EXPECT_FALSE(variables.HasMember("last_name"));
  EXPECT_EQ(str(body["agent_override"]["agent"], "webhook_url"), webhook_url);
  auto call_id = str(body["metadata"], "vcs_call_id");
  EXPECT_FALSE(str(body["metadata"], "vcs_lead_id").empty());
  EXPECT_EQ(live.log_contents().find(api_key), std::string::npos);

  auto post = [&](const std::string& path, const std::string& event,
                  std::optional<std::string> signature) {
    return post_signed(live_pub, path, event, "X-Retell-Signature", signature);
  };
  auto event = [&](const std::string& event, const std::string& signature) {
    return post("/webhooks/provider-b/" + vp, event, signature);
  };
  auto signed_now = [&](const std::string& body) {
    return domain::sign_provider(domain::provider_b_signature, api_key, body, now_ms());
  };
  // The call object carries the metadata given at creation.
  const std::string call_fields =
      R"("call_id":"rb-call-1","metadata":{"vcs_call_id":")" + call_id + R"("})";
  const std::string started = R"({"event":"call_started","call":{)" + call_fields + "}}";
  // Refused: no signature, another key, a signature of another body, one
  // older than five minutes, and a path naming another configuration.
  EXPECT_EQ(post("/webhooks/provider-b/" + vp, started, std::nullopt).status, 401u);
  EXPECT_EQ(event(started, domain::sign_provider(domain::provider_b_signature, "other_key", started,
                                                 now_ms()))
                .status,
            401u);
  EXPECT_EQ(event(started, signed_now(started + " ")).status, 401u);
  auto stale = event(started, domain::sign_provider(domain::provider_b_signature, api_key, started,
                                                    now_ms() - 600'000));
  EXPECT_EQ(stale.status, 401u);
  EXPECT_NE(stale.body.find("too old or too new"), std::string::npos) << stale.body;
  EXPECT_EQ(post("/webhooks/provider-b/" + std::to_string(std::stoll(vp) + 1000), started,
                 signed_now(started))
                .status,
            401u);
  EXPECT_EQ(lead_status(c, "+14155552671"), "QUEUED");
  auto ok = event(started, signed_now(started));
  ASSERT_EQ(ok.status, 200u) << ok.body;
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "IN_PROGRESS"; }));

  // call_ended: everything but the analysis; the cost is in cents.
  const std::string ended =
      R"({"event":"call_ended","call":{)" + call_fields +
      R"(,"call_status":"ended","disconnection_reason":"user_hangup","duration_ms":42100,)"
      R"("transcript":"Agent: Hi\nUser: Hi","recording_url":"https://rec.example/b.wav",)"
      R"("call_cost":{"combined_cost":12.5,"product_costs":[]}}})";
  ASSERT_EQ(event(ended, signed_now(ended)).status, 200u);
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "COMPLETED"; }));
  {
    auto call = read_call(live_pub, c, call_id);
    const auto& got = call["data"];
    EXPECT_EQ(str(got, "outcome"), "human");
    EXPECT_EQ(got["billed_seconds"].GetInt(), 43);
    EXPECT_EQ(str(got, "transcript"), "Agent: Hi\nUser: Hi");
    EXPECT_EQ(str(got, "recording_url"), "https://rec.example/b.wav");
    EXPECT_EQ(str(got, "ended_reason"), "user_hangup");
    EXPECT_EQ(str(got, "cost"), "0.1250");
    EXPECT_TRUE(got["summary"].IsNull());
  }
  // call_analyzed adds the analysis to the ended call. The same delivery
  // again is refused; signed anew, it changes nothing.
  const std::string analyzed =
      R"({"event":"call_analyzed","call":{)" + call_fields +
      R"(,"call_status":"ended","disconnection_reason":"user_hangup","duration_ms":42100,)"
      R"("call_analysis":{"call_summary":"Booked Tuesday.","call_successful":true,)"
      R"("custom_analysis_data":{"booked":true},"user_sentiment":"Positive"}}})";
  const auto analyzed_signature = signed_now(analyzed);
  ASSERT_EQ(event(analyzed, analyzed_signature).status, 200u);
  auto replayed = event(analyzed, analyzed_signature);
  EXPECT_EQ(replayed.status, 401u);
  EXPECT_NE(replayed.body.find("already received"), std::string::npos) << replayed.body;
  ASSERT_EQ(event(analyzed, domain::sign_provider(domain::provider_b_signature, api_key, analyzed,
                                                  now_ms() - 1000))
                .status,
            200u);
  {
    auto call = read_call(live_pub, c, call_id);
    const auto& got = call["data"];
    EXPECT_EQ(str(got, "summary"), "Booked Tuesday.");
    EXPECT_EQ(str(got, "success_evaluation"), "true");
    EXPECT_TRUE(got["structured_data"]["booked"].GetBool());
    EXPECT_EQ(str(got, "transcript"), "Agent: Hi\nUser: Hi");
  }
  auto list = calls(c);
  ASSERT_EQ(list["calls"].Size(), 1u);
  EXPECT_EQ(leads(c)["+14155552671"]["attempts_made"].GetInt(), 1);

  // An event of a kind that changes no call is acknowledged, not applied.
  const std::string transcript = R"({"event":"transcript_updated","call":{)" + call_fields + "}}";
  auto ignored = event(transcript, signed_now(transcript));
  ASSERT_EQ(ignored.status, 200u);
  EXPECT_NE(ignored.body.find("\"applied\":false"), std::string::npos) << ignored.body;

  // A call that ended because the account's concurrency was full never
  // rang: the lead gets its attempt back.
  fake.respond_with(201, R"({"call_id":"rb-call-2","call_status":"registered"})");
  add_lead(c, "+14155552672");
  run_live("2030-01-02T12:03:00Z");
  std::string second;
  ASSERT_TRUE(eventually([&] {
    for (const auto& req : fake.received())
      if (req.body.find("\"+14155552672\"") != std::string::npos)
        second = str(parse(req.body)["metadata"], "vcs_call_id");
    return !second.empty();
  }));
  const std::string full = R"({"event":"call_ended","call":{"call_id":"rb-call-2","metadata":)"
                           R"({"vcs_call_id":")" +
                           second +
                           R"("},"call_status":"error","disconnection_reason":)"
                           R"("concurrency_limit_reached"}})";
  ASSERT_EQ(event(full, signed_now(full)).status, 200u);
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552672") == "IDLE"; }));
  {
    auto all = leads(c);
    EXPECT_EQ(all["+14155552672"]["attempts_made"].GetInt(), 0);
    EXPECT_EQ(str(all["+14155552672"], "call_error_reason"),
              "provider_b: concurrency_limit_reached");
  }

  // The provider refuses: the attempt is given back and retried later.
  fake.respond_with(402, R"({"error_message":"Insufficient balance"})");
  expect_attempt_given_back(live, c, "provider_b: HTTP 402");
  EXPECT_EQ(live.terminate(), 0);
}

// provider_c live: the outbound call as its API documents it, then its
// workspace's post-call webhook, pointed by the tenant at the
// configuration's route and signed with the webhook's secret.
TEST_F(dialer_test, provider_c_calls_go_through_its_api_and_signed_webhooks_end_them) {
  webhook_receiver fake;
  fake.respond_with(
      200, R"({"success":true,"message":"Success","conversation_id":"conv-c-1","callSid":"CA1"})");
  auto env = live_env("VCS_PROVIDER_C_BASE_URL", fake);
  service_process live{env};
  http_client live_pub{"127.0.0.1", live.public_port()};
  const std::string api_key = "sk_live_c_key";
  const std::string secret = "wsec_live_c_secret";
  auto r = live_pub.request("POST", "/api/v2/voice-pod",
                            R"({"voice_provider":"provider_c","provider_c_api_key":")" + api_key +
                                R"(","provider_c_webhook_id":"wh_1",)"
                                R"("provider_c_webhook_secret_key":")" +
                                secret + R"("})",
                            bearer(key));
  ASSERT_EQ(r.status, 201u) << r.body;
  auto p = str(parse(r.body)["data"], "voice_provider_id");
  // The URL its workspace webhook must name is on the configuration.
  auto view = parse(live_pub.request("GET", "/api/v2/voice-pod/" + p, {}, bearer(key)).body);
  EXPECT_EQ(str(view["data"], "callback_url"), "https://dialer.example/webhooks/provider-c/" + p);
  const std::string agent = "agent_c_" + tenant;
  auto r2 = pub("POST", "/api/v2/voice-campaigns",
                R"({"name":"dial c","assistant_id":")" + agent +
                    R"(","phone_number_id":"phnum_c_1","tenant_voice_provider_id":")" + p +
                    R"(","start_date":"2030-01-01"})");
  ASSERT_EQ(r2.status, 201u) << r2.body;
  auto c = str(parse(r2.body)["data"], "campaign_id");
  {
    auto r = pub("POST", "/api/v2/voice-campaigns/" + c + "/leads",
                 R"({"phone_number":"+14155552671","first_name":"Ada",)"
                 R"("custom_fields":{"plan":"gold","vcs_call_id":"not this"}})");
    ASSERT_EQ(r.status, 201u) << r.body;
  }
  set_status(c, "ACTIVE");
  run_on(live, "2030-01-02T12:00:00Z");
  auto ours = [&] { return request_holding(fake, "\"" + agent + "\""); };
  ASSERT_TRUE(eventually([&] { return ours().has_value(); }));
  auto sent = *ours();
  EXPECT_EQ(sent.target, "/v1/convai/twilio/outbound-call");
  EXPECT_EQ(sent.headers["xi-api-key"], api_key);
  EXPECT_EQ(sent.headers.count("authorization"), 0u);
  auto body = parse(sent.body);
  EXPECT_EQ(str(body, "agent_id"), agent);
  EXPECT_EQ(str(body, "agent_phone_number_id"), "phnum_c_1");
  EXPECT_EQ(str(body, "to_number"), "+14155552671");
  const auto& variables = body["conversation_initiation_client_data"]["dynamic_variables"];
  EXPECT_EQ(str(variables, "first_name"), "Ada");
  EXPECT_EQ(str(variables, "plan"), "gold");
  auto call_id = str(variables, "vcs_call_id");
  EXPECT_NE(call_id, "not this");
  EXPECT_EQ(live.log_contents().find(api_key), std::string::npos);
  ASSERT_TRUE(eventually([&] {
    auto list = calls(c);
    return list["calls"].Size() == 1 && list["calls"][0]["provider_call_id"].IsString() &&
           str(list["calls"][0], "provider_call_id") == "conv-c-1";
  }));

  auto post = [&](const std::string& id, const std::string& event,
                  std::optional<std::string> signature) {
    return post_signed(live_pub, "/webhooks/provider-c/" + id, event, "ElevenLabs-Signature",
                       signature);
  };
  auto signed_at = [&](const std::string& body, int64_t ms, const std::string& with = {}) {
    return domain::sign_provider(domain::provider_c_signature, with.empty() ? secret : with, body,
                                 ms);
  };
  // The report names the conversation the placement answered (no
  // variables here: the conversation id alone finds the call).
  const std::string done =
      R"({"type":"post_call_transcription","event_timestamp":1739537297,"data":{)"
      R"("agent_id":")" +
      agent +
      R"(","conversation_id":"conv-c-1","status":"done","transcript":[)"
      R"({"role":"agent","message":"Hi Ada","time_in_call_secs":0},)"
      R"({"role":"user","message":"Hello","time_in_call_secs":2},)"
      R"({"role":"agent","message":null,"tool_calls":[{"tool_name":"end_call"}]}],)"
      R"("metadata":{"start_time_unix_secs":1739537297,"call_duration_secs":22.4,"cost":296,)"
      R"("termination_reason":"end_call tool was called."},)"
      R"("analysis":{"evaluation_criteria_results":{},"data_collection_results":)"
      R"({"booked":{"value":true}},"call_successful":"success",)"
      R"("transcript_summary":"Ada booked."}}})";
  // Refused: no signature, the API key instead of the webhook's secret, a
  // signature of another body, one over thirty minutes old, the numeric id
  // instead of the public one, another configuration.
  EXPECT_EQ(post(p, done, std::nullopt).status, 401u);
  EXPECT_EQ(post(p, done, signed_at(done, now_ms(), api_key)).status, 401u);
  EXPECT_EQ(post(p, done, signed_at(done + " ", now_ms())).status, 401u);
  auto stale = post(p, done, signed_at(done, now_ms() - 31 * 60'000));
  EXPECT_EQ(stale.status, 401u);
  EXPECT_NE(stale.body.find("too old or too new"), std::string::npos) << stale.body;
  auto vp = std::to_string(*domain::decode_global_id(domain::entity::voice_provider, p));
  EXPECT_EQ(post(vp, done, signed_at(done, now_ms())).status, 401u);
  EXPECT_EQ(post(provider(1), done, signed_at(done, now_ms())).status, 401u);
  EXPECT_EQ(lead_status(c, "+14155552671"), "IN_PROGRESS");
  // Twenty minutes old is still within the vendor's thirty.
  const auto signature = signed_at(done, now_ms() - 20 * 60'000);
  auto ok = post(p, done, signature);
  ASSERT_EQ(ok.status, 200u) << ok.body;
  EXPECT_NE(ok.body.find("\"applied\":true"), std::string::npos) << ok.body;
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "COMPLETED"; }));
  auto replayed = post(p, done, signature);
  EXPECT_EQ(replayed.status, 401u);
  EXPECT_NE(replayed.body.find("already received"), std::string::npos) << replayed.body;
  {
    auto call = read_call(live_pub, c, call_id);
    const auto& got = call["data"];
    EXPECT_EQ(str(got, "outcome"), "human");
    EXPECT_EQ(got["billed_seconds"].GetInt(), 23);
    EXPECT_EQ(str(got, "transcript"), "Agent: Hi Ada\nUser: Hello");
    EXPECT_EQ(str(got, "summary"), "Ada booked.");
    EXPECT_EQ(str(got, "success_evaluation"), "success");
    EXPECT_TRUE(got["structured_data"]["booked"]["value"].GetBool());
    EXPECT_EQ(str(got, "ended_reason"), "end_call tool was called.");
    // Its cost is in the vendor's credits, not money.
    EXPECT_TRUE(got["cost"].IsNull());
  }

  // A 200 that says it placed nothing is a refusal: the attempt is given back.
  fake.respond_with(200, R"({"success":false,"message":"Agent not found"})");
  expect_attempt_given_back(live, c, "provider_c: HTTP 200 Agent not found");

  // A call that never connected: its failure reason is the outcome (busy
  // retries later), found by our id among the variables sent back. The lead
  // given back above is called again in this round too: each placement is
  // its own conversation, as the vendor's are.
  fake.respond_with(200, R"({"success":true,"message":"Success","conversation_id":"conv-c-{n}"})");
  add_lead(c, "+14155552672");
  run_on(live, "2030-01-02T12:05:00Z");
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552672") == "IN_PROGRESS"; }));
  std::string second;
  for (const auto& req : fake.received())
    if (req.body.find("+14155552672") != std::string::npos)
      second = str(parse(req.body)["conversation_initiation_client_data"]["dynamic_variables"],
                   "vcs_call_id");
  ASSERT_FALSE(second.empty());
  const std::string busy =
      R"({"type":"call_initiation_failure","event_timestamp":1759931652,"data":{)"
      R"("agent_id":"x","conversation_id":"conv-other","failure_reason":"busy",)"
      R"("conversation_initiation_client_data":{"dynamic_variables":{"vcs_call_id":")" +
      second +
      R"("}},"metadata":{"type":"twilio","body":{"CallStatus":"busy","SipResponseCode":"486"}}}})";
  ASSERT_EQ(post(p, busy, signed_at(busy, now_ms())).status, 200u);
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552672") == "IDLE"; }));
  {
    auto all = leads(c);
    EXPECT_EQ(all["+14155552672"]["attempts_made"].GetInt(), 1);
  }
  // A webhook of a kind that ends no call is acknowledged, not applied.
  const std::string audio =
      R"({"type":"post_call_audio","data":{"conversation_id":"conv-c-1","full_audio":"AA=="}})";
  auto ignored = post(p, audio, signed_at(audio, now_ms()));
  ASSERT_EQ(ignored.status, 200u);
  EXPECT_NE(ignored.body.find("\"applied\":false"), std::string::npos) << ignored.body;

  // Without the webhook's secret no report could be checked: nothing is
  // placed, and the campaign waits, paused, for the configuration to get one.
  auto unsigned_provider = pub("POST", "/api/v2/voice-pod",
                               R"({"voice_provider":"provider_c","provider_c_api_key":"sk_c2"})");
  ASSERT_EQ(unsigned_provider.status, 201u) << unsigned_provider.body;
  const std::string agent2 = "agent_c2_" + tenant;
  auto r3 = pub("POST", "/api/v2/voice-campaigns",
                R"({"name":"dial c2","assistant_id":")" + agent2 +
                    R"(","phone_number_id":"phnum_c_1","tenant_voice_provider_id":")" +
                    str(parse(unsigned_provider.body)["data"], "voice_provider_id") +
                    R"(","start_date":"2030-01-01"})");
  ASSERT_EQ(r3.status, 201u) << r3.body;
  auto c2 = str(parse(r3.body)["data"], "campaign_id");
  add_lead(c2, "+14155552673");
  set_status(c2, "ACTIVE");
  run_on(live, "2030-01-02T12:06:00Z");
  ASSERT_TRUE(eventually([&] { return campaign_status(c2) == "PAUSED"; }));
  EXPECT_EQ(pause_reason(c2), "provider_credentials");
  EXPECT_NE(str(leads(c2)["+14155552673"], "call_error_reason").find("no webhook secret"),
            std::string::npos);
  for (const auto& req : fake.received())
    EXPECT_EQ(req.body.find(agent2), std::string::npos);

  EXPECT_EQ(live.terminate(), 0);
}

// A vendor that answers two placements with one conversation id: the first
// call keeps it, the second goes on under our own id (which the vendor echoes
// in its variables) instead of failing its report on the unique index.
TEST_F(dialer_test, two_calls_answered_with_one_vendor_id_both_go_on) {
  webhook_receiver fake;
  fake.respond_with(200, R"({"success":true,"message":"Success","conversation_id":"conv-same"})");
  auto env = live_env("VCS_PROVIDER_C_BASE_URL", fake);
  service_process live{env};
  auto r = pub("POST", "/api/v2/voice-pod",
               R"({"voice_provider":"provider_c","provider_c_api_key":"sk_c_dup",)"
               R"("provider_c_webhook_id":"wh_1","provider_c_webhook_secret_key":"wsec_dup"})");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto r2 =
      pub("POST", "/api/v2/voice-campaigns",
          R"({"name":"dup","assistant_id":"agent_dup_)" + tenant +
              R"(","phone_number_id":"phnum_c_1","tenant_voice_provider_id":")" +
              str(parse(r.body)["data"], "voice_provider_id") + R"(","start_date":"2030-01-01"})");
  ASSERT_EQ(r2.status, 201u) << r2.body;
  auto c = str(parse(r2.body)["data"], "campaign_id");
  add_lead(c, "+14155552681");
  add_lead(c, "+14155552682");
  set_status(c, "ACTIVE");
  run_on(live, "2030-01-02T12:00:00Z");
  ASSERT_TRUE(eventually([&] {
    return lead_status(c, "+14155552681") == "IN_PROGRESS" &&
           lead_status(c, "+14155552682") == "IN_PROGRESS";
  }));
  auto list = calls(c);
  ASSERT_EQ(list["calls"].Size(), 2u);
  int named = 0;
  for (const auto& call : list["calls"].GetArray())
    named += call["provider_call_id"].IsString() && str(call, "provider_call_id") == "conv-same";
  EXPECT_EQ(named, 1);
  EXPECT_EQ(live.terminate(), 0);
}

// Each vendor is asked, in its documented shapes, whether the credentials
// work and for the account's assistants and numbers; what it answers is
// read back as the pickers' items.
TEST_F(dialer_test, each_vendor_is_asked_for_its_credentials_assistants_and_numbers) {
  struct vendor {
    const char* base_url;
    std::string registration;
    std::string auth_header, auth_value;
    std::string verify_target, verify_answer;
    std::string assistants_method, assistants_target, assistants_answer;
    std::string numbers_target, numbers_answer;
    // What the lists read: "id name number" of the first item each, and
    // whether the assistants are truncated.
    std::string first_assistant, first_number;
    bool assistants_truncated;
  };
  const vendor vendors[] = {
      {"VCS_PROVIDER_A_BASE_URL",
       R"({"voice_provider":"provider_a","provider_a_private_key":"priv_a_0123456789",)"
       R"("provider_a_public_key":"pub_a","provider_a_organization_id":"org_a"})",
       "authorization", "Bearer priv_a_0123456789", "/assistant?limit=1", "[]", "GET",
       "/assistant?limit=101",
       R"([{"id":"asst_1","name":"Sales","model":{"provider":"openai"}},{"id":"asst_2"}])",
       "/phone-number?limit=101",
       R"([{"id":"pn_1","name":"Main","number":"+14155550100","provider":"twilio"}])",
       "asst_1 Sales -", "pn_1 Main +14155550100", false},
      {"VCS_PROVIDER_B_BASE_URL",
       R"({"voice_provider":"provider_b","provider_b_api_key":"key_b_live"})", "authorization",
       "Bearer key_b_live", "/get-concurrency",
       R"({"current_concurrency":0,"concurrency_limit":20})", "POST", "/v2/list-agents?limit=101",
       R"({"items":[{"agent_id":"agent_b1","agent_name":"Voice","channel":"voice"}],"has_more":true,"pagination_key":"p2"})",
       "/v2/list-phone-numbers?limit=101",
       R"({"items":[{"phone_number":"+14155550101","nickname":null,"phone_number_type":"retell-twilio"}],"has_more":false})",
       "agent_b1 Voice -", "+14155550101 - +14155550101", true},
      {"VCS_PROVIDER_C_BASE_URL",
       R"({"voice_provider":"provider_c","provider_c_api_key":"sk_c_live"})", "xi-api-key",
       "sk_c_live", "/v1/convai/agents?page_size=1",
       R"({"agents":[],"has_more":false,"next_cursor":null})", "GET",
       "/v1/convai/agents?page_size=100",
       R"({"agents":[{"agent_id":"agent_c1","name":"Ava","tags":[]}],"has_more":false,"next_cursor":null})",
       "/v1/convai/phone-numbers",
       R"([{"phone_number_id":"phnum_1","label":"Main line","phone_number":"+14155550102","provider":"twilio"}])",
       "agent_c1 Ava -", "phnum_1 Main line +14155550102", false},
      {"VCS_PROVIDER_D_BASE_URL",
       R"({"voice_provider":"provider_d","provider_d_api_key":"org_d_live"})", "authorization",
       "Bearer org_d_live", "/v1/me",
       R"({"status":"active","billing":{"current_balance":10},"total_calls":3})", "GET",
       "/v1/pathway", R"([{"pathway_id":"pw_1","name":"Intake","nodes":[],"edges":[]}])",
       "/v1/inbound", R"({"inbound_numbers":[{"phone_number":"+14155550103","prompt":"hi"}]})",
       "pw_1 Intake -", "+14155550103 - +14155550103", false},
  };
  auto first = [](const rapidjson::Value& item) {
    auto text = [&](const char* m) {
      return item[m].IsString() ? std::string{item[m].GetString()} : std::string{"-"};
    };
    return text("id") + " " + text("name") + " " + text("number");
  };
  for (const auto& v : vendors) {
    SCOPED_TRACE(v.base_url);
    webhook_receiver fake;
    service_process live{live_env(v.base_url, fake)};
    http_client live_pub{"127.0.0.1", live.public_port()};
    auto p = registered(live_pub, v.registration);
    auto ask = [&](const char* method, const std::string& what, const std::string& answer,
                   int status = 200) {
      fake.respond_with(status, answer);
      return live_pub.request(method, "/api/v2/voice-pod/" + p + what, {}, bearer(key));
    };
    // The latest request made with this configuration's key (a live node
    // may also dial other tests' due campaigns through the same fake).
    auto last = [&] {
      webhook_receiver::request found;
      for (auto& req : fake.received())
        if (req.headers[v.auth_header] == v.auth_value)
          found = req;
      return found;
    };

    auto verified = ask("POST", "/verify", v.verify_answer);
    ASSERT_EQ(verified.status, 200u) << verified.body;
    EXPECT_TRUE(parse(verified.body)["data"]["verified"].GetBool()) << verified.body;
    EXPECT_EQ(last().method, "GET");
    EXPECT_EQ(last().target, v.verify_target);
    EXPECT_EQ(last().headers[v.auth_header], v.auth_value);

    auto assistants = ask("GET", "/assistants", v.assistants_answer);
    ASSERT_EQ(assistants.status, 200u) << assistants.body;
    auto a = parse(assistants.body);
    EXPECT_EQ(last().method, v.assistants_method);
    EXPECT_EQ(last().target, v.assistants_target);
    // provider_b's list takes its filter in the body, in its schema's form.
    if (v.assistants_method == "POST")
      EXPECT_NE(last().body.find(R"("channel":{"type":"string","op":"eq","value":"voice"})"),
                std::string::npos)
          << last().body;
    EXPECT_EQ(last().headers[v.auth_header], v.auth_value);
    ASSERT_GE(a["data"].Size(), 1u);
    EXPECT_EQ(first(a["data"][0]), v.first_assistant);
    EXPECT_EQ(a["meta"]["truncated"].GetBool(), v.assistants_truncated);
    EXPECT_FALSE(a["meta"]["simulated"].GetBool());

    auto numbers = ask("GET", "/phone-numbers", v.numbers_answer);
    ASSERT_EQ(numbers.status, 200u) << numbers.body;
    auto n = parse(numbers.body);
    EXPECT_EQ(last().method, "GET");
    EXPECT_EQ(last().target, v.numbers_target);
    ASSERT_EQ(n["data"].Size(), 1u);
    EXPECT_EQ(first(n["data"][0]), v.first_number);
    EXPECT_EQ(live.log_contents().find(v.auth_value.substr(v.auth_value.size() - 8)),
              std::string::npos);
  }
}

// A refused key, an answer that is not a list, and the minute a list is
// kept (until the credentials change).
TEST_F(dialer_test, vendor_answers_are_named_and_lists_kept_a_minute) {
  webhook_receiver fake;
  service_process live{live_env("VCS_PROVIDER_D_BASE_URL", fake)};
  http_client live_pub{"127.0.0.1", live.public_port()};
  auto p = registered(live_pub, R"({"voice_provider":"provider_d","provider_d_api_key":"org_d"})");
  auto ask = [&](const char* method, const std::string& what) {
    return live_pub.request(method, "/api/v2/voice-pod/" + p + what, {}, bearer(key));
  };
  fake.respond_with(401, R"({"status":"error","message":"Invalid API key"})");
  auto refused = ask("POST", "/verify");
  ASSERT_EQ(refused.status, 200u) << refused.body;
  auto answer = parse(refused.body);
  const auto& r = answer["data"];
  EXPECT_FALSE(r["verified"].GetBool());
  EXPECT_EQ(std::string{r["outcome"].GetString()}, "credentials_refused");
  EXPECT_EQ(r["vendor_status"].GetInt(), 401);
  auto list = ask("GET", "/assistants");
  ASSERT_EQ(list.status, 502u) << list.body;
  EXPECT_EQ(str(parse(list.body), "error"), "credentials_refused");

  fake.respond_with(200, R"({"status":"success"})");
  auto odd = ask("GET", "/phone-numbers");
  ASSERT_EQ(odd.status, 502u) << odd.body;
  EXPECT_EQ(str(parse(odd.body), "error"), "unexpected_answer");

  // Requests of this configuration (a live node may also dial other tests'
  // due campaigns through the same fake).
  auto asked_with = [&](const std::string& key_value) {
    std::size_t n = 0;
    for (auto& req : fake.received())
      n += req.headers["authorization"] == "Bearer " + key_value;
    return n;
  };
  fake.respond_with(200, R"({"inbound_numbers":[{"phone_number":"+14155550103"}]})");
  ASSERT_EQ(ask("GET", "/phone-numbers").status, 200u);
  const auto asked = asked_with("org_d");
  fake.respond_with(200, R"({"inbound_numbers":[]})");
  auto kept = parse(ask("GET", "/phone-numbers").body);
  EXPECT_EQ(asked_with("org_d"), asked) << "answered from memory";
  EXPECT_EQ(kept["data"].Size(), 1u);
  ASSERT_EQ(live_pub
                .request("PATCH", "/api/v2/voice-pod/" + p, R"({"provider_d_api_key":"org_d2"})",
                         bearer(key))
                .status,
            200u);
  auto fresh = parse(ask("GET", "/phone-numbers").body);
  EXPECT_EQ(asked_with("org_d2"), 1u) << "new credentials ask again";
  EXPECT_EQ(fresh["data"].Size(), 0u);
}

// The simulated provider has no vendor behind it: it says so.
TEST_F(dialer_test, the_simulated_provider_verifies_without_asking_anyone) {
  auto p = provider(1);
  auto verified = pub("POST", "/api/v2/voice-pod/" + p + "/verify");
  ASSERT_EQ(verified.status, 200u) << verified.body;
  auto v = parse(verified.body);
  EXPECT_TRUE(v["data"]["verified"].GetBool());
  EXPECT_TRUE(v["data"]["simulated"].GetBool());
  auto listed = pub("GET", "/api/v2/voice-pod/" + p + "/assistants");
  ASSERT_EQ(listed.status, 200u) << listed.body;
  auto l = parse(listed.body);
  EXPECT_EQ(l["data"].Size(), 0u);
  EXPECT_TRUE(l["meta"]["simulated"].GetBool());
  EXPECT_EQ(pub("GET", "/api/v2/voice-pod/not-an-id/phone-numbers").status, 404u);
}

// A configuration of kind simulated is a dry run on a live node: its calls
// end as the lead's script says and reach no vendor, and verify says so.
TEST_F(dialer_test, a_simulated_configuration_dry_runs_a_campaign_on_a_live_node) {
  webhook_receiver fake;
  auto env = live_env("VCS_PROVIDER_A_BASE_URL", fake);
  service_process live{env};
  http_client live_pub{"127.0.0.1", live.public_port()};
  auto r = pub("POST", "/api/v2/voice-pod", R"({"voice_provider":"simulated"})");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto p = str(parse(r.body)["data"], "voice_provider_id");
  EXPECT_EQ(str(parse(r.body)["data"], "voice_provider"), "simulated");
  // It takes no vendor's credentials.
  auto refused = pub("POST", "/api/v2/voice-pod",
                     R"({"voice_provider":"simulated","provider_a_private_key":"k"})");
  EXPECT_EQ(refused.status, 400u) << refused.body;
  auto verified = live_pub.request("POST", "/api/v2/voice-pod/" + p + "/verify", {}, bearer(key));
  ASSERT_EQ(verified.status, 200u) << verified.body;
  EXPECT_TRUE(parse(verified.body)["data"]["simulated"].GetBool());

  auto c = campaign(p, R"(,"start_date":"2030-01-01")");
  add_lead(c, "+14155552695", "busy,human");
  set_status(c, "ACTIVE");
  run_on(live, "2030-01-02T12:00:00Z");
  ASSERT_TRUE(eventually([&] {
    auto all = leads(c);
    auto it = all.find("+14155552695");
    return it != all.end() && it->second["attempts_made"].GetInt() == 1 &&
           str(it->second, "call_status") == "IDLE";
  }));
  // The retry (busy waits its gap) answers, as scripted.
  run_on(live, "2030-01-02T14:00:00Z");
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552695") == "COMPLETED"; }));
  auto list = calls(c);
  ASSERT_EQ(list["calls"].Size(), 2u);
  // (Rounds on demand take every tenant's due campaigns: other tests' may
  // reach the fake, never this one's.)
  EXPECT_FALSE(request_holding(fake, "+14155552695").has_value());
  EXPECT_EQ(live.terminate(), 0);
}

// Credentials rotated through PATCH /api/v2/voice-pod/{id} are what the
// next call sends.
TEST_F(dialer_test, a_rotated_provider_key_is_what_the_next_call_sends) {
  webhook_receiver fake;
  fake.respond_with(200,
                    R"({"status":"success","message":"Call successfully queued.","call_id":"bd-r",)"
                    R"("batch_id":null})");
  service_process live{live_env("VCS_PROVIDER_D_BASE_URL", fake)};
  http_client live_pub{"127.0.0.1", live.public_port()};
  auto p =
      registered(live_pub, R"({"voice_provider":"provider_d","provider_d_api_key":"org_old"})");
  auto vp = std::to_string(*domain::decode_global_id(domain::entity::voice_provider, p));
  auto rotated = live_pub.request("PATCH", "/api/v2/voice-pod/" + p,
                                  R"({"provider_d_api_key":"org_rotated_key_0001"})", bearer(key));
  ASSERT_EQ(rotated.status, 200u) << rotated.body;
  auto c = campaign(p, R"(,"start_date":"2030-01-01")");
  add_lead(c, "+14155552671");
  set_status(c, "ACTIVE");
  run_on(live, "2030-01-02T12:00:00Z");
  const std::string webhook_prefix = "https://dialer.example/webhooks/provider-d/" + vp + "/";
  auto ours = [&] { return request_holding(fake, webhook_prefix); };
  ASSERT_TRUE(eventually([&] { return ours().has_value(); }));
  EXPECT_EQ(ours()->headers["authorization"], "Bearer org_rotated_key_0001");
}

// provider_d live: the call as its API documents it, then the call object
// it POSTs to the webhook URL the service gave the call, which carries the
// configuration's derived secret (the vendor's own signing secret is not
// in the contract).
TEST_F(dialer_test, provider_d_calls_go_through_its_api_and_its_webhook_ends_them) {
  webhook_receiver fake;
  fake.respond_with(200,
                    R"({"status":"success","message":"Call successfully queued.","call_id":"bd-1",)"
                    R"("batch_id":null})");
  service_process live{live_env("VCS_PROVIDER_D_BASE_URL", fake)};
  http_client live_pub{"127.0.0.1", live.public_port()};
  const std::string api_key = "org_live_d_key";
  auto p = registered(live_pub, R"({"voice_provider":"provider_d","provider_d_api_key":")" +
                                    api_key + R"("})");
  auto vp = std::to_string(*domain::decode_global_id(domain::entity::voice_provider, p));
  auto c = campaign(p, R"(,"start_date":"2030-01-01")");
  {
    auto r = pub("POST", "/api/v2/voice-campaigns/" + c + "/leads",
                 R"({"phone_number":"+14155552671","last_name":"Lovelace",)"
                 R"("custom_fields":{"plan":"gold"}})");
    ASSERT_EQ(r.status, 201u) << r.body;
  }
  set_status(c, "ACTIVE");
  run_on(live, "2030-01-02T12:00:00Z");
  const std::string webhook_prefix = "https://dialer.example/webhooks/provider-d/" + vp + "/";
  auto ours = [&] { return request_holding(fake, webhook_prefix); };
  ASSERT_TRUE(eventually([&] { return ours().has_value(); }));
  auto sent = *ours();
  EXPECT_EQ(sent.target, "/v1/calls");
  EXPECT_EQ(sent.headers["authorization"], "Bearer " + api_key);
  auto body = parse(sent.body);
  EXPECT_EQ(str(body, "phone_number"), "+14155552671");
  EXPECT_EQ(str(body, "pathway_id"), "asst_1");
  EXPECT_EQ(str(body, "from"), "pn_1");
  EXPECT_TRUE(body["answered_by_enabled"].GetBool());
  EXPECT_EQ(str(body["request_data"], "last_name"), "Lovelace");
  EXPECT_EQ(str(body["request_data"], "plan"), "gold");
  auto call_id = str(body["metadata"], "vcs_call_id");
  auto webhook = str(body, "webhook");
  auto secret = webhook.substr(webhook_prefix.size());
  EXPECT_EQ(secret.size(), 64u);
  EXPECT_EQ(live.log_contents().find(api_key), std::string::npos);
  // The vendor reports nothing before the end: placed is in progress.
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "IN_PROGRESS"; }));

  auto post = [&](const std::string& path, const std::string& call_object) {
    return post_signed(live_pub, path, call_object, "X-Unused", std::nullopt);
  };
  // The call object as the vendor's call details document it.
  const std::string ended =
      R"({"call_id":"bd-1","call_length":0.75,"to":"+14155552671","from":"pn_1",)"
      R"("completed":true,"queue_status":"complete","error_message":null,)"
      R"("answered_by":"human","recording_url":"https://rec.example/d.mp3",)"
      R"("metadata":{"vcs_call_id":")" +
      call_id +
      R"("},"summary":"Booked Wednesday.","price":0.068,"call_ended_by":"USER",)"
      R"("analysis":{"booked":true},"concatenated_transcript":"assistant: Hi \n user: Hi"})";
  // Refused: another secret, another configuration's, none.
  EXPECT_EQ(post("/webhooks/provider-d/" + vp + "/" + std::string(64, '0'), ended).status, 401u);
  auto other = std::to_string(std::stoll(vp) + 1000);
  EXPECT_EQ(post("/webhooks/provider-d/" + other + "/" + secret, ended).status, 401u);
  EXPECT_EQ(post("/webhooks/provider-d/" + vp + "/", ended).status / 100, 4u);
  EXPECT_EQ(lead_status(c, "+14155552671"), "IN_PROGRESS");
  auto ok = post("/webhooks/provider-d/" + vp + "/" + secret, ended);
  ASSERT_EQ(ok.status, 200u) << ok.body;
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "COMPLETED"; }));
  // A repeat changes nothing.
  ASSERT_EQ(post("/webhooks/provider-d/" + vp + "/" + secret, ended).status, 200u);
  {
    auto call = read_call(live_pub, c, call_id);
    const auto& got = call["data"];
    EXPECT_EQ(str(got, "outcome"), "human");
    EXPECT_EQ(got["billed_seconds"].GetInt(), 45);
    EXPECT_EQ(str(got, "transcript"), "assistant: Hi \n user: Hi");
    EXPECT_EQ(str(got, "summary"), "Booked Wednesday.");
    EXPECT_EQ(str(got, "recording_url"), "https://rec.example/d.mp3");
    EXPECT_EQ(str(got, "ended_reason"), "USER");
    EXPECT_EQ(str(got, "cost"), "0.0680");
    EXPECT_TRUE(got["structured_data"]["booked"].GetBool());
  }

  // A machine answered: voicemail, by answered_by.
  fake.respond_with(200, R"({"status":"success","call_id":"bd-2"})");
  add_lead(c, "+14155552672");
  run_on(live, "2030-01-02T12:05:00Z");
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552672") == "IN_PROGRESS"; }));
  const std::string machine =
      R"({"call_id":"bd-2","call_length":0.2,"completed":true,"queue_status":"complete",)"
      R"("answered_by":"voicemail","metadata":{}})";
  ASSERT_EQ(post("/webhooks/provider-d/" + vp + "/" + secret, machine).status, 200u);
  ASSERT_TRUE(eventually([&] {
    auto list = calls(c);
    for (const auto& call : list["calls"].GetArray())
      if (str(call, "provider_call_id") == "bd-2")
        return call["outcome"].IsString() && str(call, "outcome") == "voicemail";
    return false;
  }));

  // The provider refuses: the attempt is given back and retried later.
  fake.respond_with(400, R"({"status":"error","message":"Invalid pathway_id"})");
  expect_attempt_given_back(live, c, "provider_d: HTTP 400");
  EXPECT_EQ(live.terminate(), 0);
}

// A provider's refusals by kind: a busy provider (429) costs the lead no
// attempt and counts nothing towards the failure breaker; refused
// credentials (401) pause the campaign at once with a reason of its own,
// announced by campaign.paused.
TEST_F(dialer_test, a_busy_provider_costs_nothing_and_refused_credentials_pause_the_campaign) {
  webhook_receiver fake;
  fake.respond_with(429, R"({"error_message":"Concurrency limit reached"})");
  auto env = live_env("VCS_PROVIDER_B_BASE_URL", fake);
  service_process live{env};
  auto r = pub("POST", "/api/v2/voice-pod",
               R"({"voice_provider":"provider_b","provider_b_api_key":"key_refused"})");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto p = str(parse(r.body)["data"], "voice_provider_id");
  // A breaker that two failures in two calls would trip.
  auto c = campaign(p, R"(,"start_date":"2030-01-01","failure_breaker_calls":2,)"
                       R"("failure_breaker_percent":50)");
  add_lead(c, "+14155552671");
  set_status(c, "ACTIVE");
  const char* rounds[] = {"2030-01-02T12:00:00Z", "2030-01-02T12:02:00Z", "2030-01-02T12:04:00Z"};
  for (std::size_t i = 0; i < 3; ++i) {
    run_on(live, rounds[i]);
    ASSERT_TRUE(eventually(
        [&] { return call_count(c) == i + 1 && lead_status(c, "+14155552671") == "IDLE"; }));
  }
  EXPECT_EQ(campaign_status(c), "ACTIVE");
  auto all = leads(c);
  const auto& lead = all["+14155552671"];
  EXPECT_EQ(lead["attempts_made"].GetInt(), 0);
  EXPECT_NE(str(lead, "call_error_reason").find("provider_b: HTTP 429"), std::string::npos);

  fake.respond_with(401, R"({"error_message":"Invalid API key"})");
  run_on(live, "2030-01-02T12:06:00Z");
  ASSERT_TRUE(eventually([&] { return campaign_status(c) == "PAUSED"; }));
  EXPECT_EQ(pause_reason(c), "provider_credentials");
  EXPECT_EQ(leads(c)["+14155552671"]["attempts_made"].GetInt(), 0);
  auto events = parse(pub("GET", "/api/v2/events?limit=1000").body);
  auto paused = std::count_if(events["data"].Begin(), events["data"].End(), [&](const auto& e) {
    return str(e, "type") == "campaign.paused" && str(e, "campaign_id") == c &&
           str(e["payload"]["data"], "pause_reason") == "provider_credentials";
  });
  EXPECT_EQ(paused, 1);
  // Paused, it places no more calls.
  run_on(live, "2030-01-02T12:08:00Z");
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(call_count(c), 4u);
  EXPECT_EQ(live.terminate(), 0);
}
// One vendor as the outcome matrix drives it: its configuration, its API's
// answer to a placement (`{n}` numbers each), and its end report of each
// outcome in its documented shape, sent to its callback route with its
// proof (docs/decisions/voice-providers.md).
struct vendor_case {
  const char* base_url_setting;
  std::string registration;
  int placed_status;
  std::string placed_answer;
  std::string vendor_id_prefix; // of the ids placed_answer gives
  // Our call id in the vendor's placement request.
  std::function<std::string(const rapidjson::Value& sent)> our_call_id;
  // The report that `our` call (`theirs` at the vendor) ended in `outcome`;
  // empty when the vendor documents no report of it.
  std::function<std::string(const std::string& outcome, const std::string& our,
                            const std::string& theirs)>
      report;
  // The callback of `body` about the call placed by `sent`, through
  // `client`, proven (or, `forged`, proven with something else).
  std::function<http_response(http_client& client, const rapidjson::Value& sent,
                              const std::string& public_id, const std::string& body, bool forged)>
      callback;
};

int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

http_response post_json(http_client& client, const std::string& path, const std::string& body,
                        header_list headers = {}) {
  headers.push_back({"Content-Type", "application/json"});
  return client.request("POST", path, body, headers);
}

// The path of `url` (https://dialer.example/...).
std::string path_of(const std::string& url) {
  auto at = url.find('/', url.find("//") + 2);
  return at == std::string::npos ? "/" : url.substr(at);
}

vendor_case vendor_case_of(const std::string& kind) {
  if (kind == "provider_a")
    return {"VCS_PROVIDER_A_BASE_URL",
            R"({"voice_provider":"provider_a","provider_a_private_key":"sk-a-matrix",)"
            R"("provider_a_public_key":"pk","provider_a_organization_id":"org"})",
            201,
            R"({"id":"pa-{n}","status":"queued"})",
            "pa-",
            [](const rapidjson::Value& sent) { return str(sent["metadata"], "vcs_call_id"); },
            [](const std::string& outcome, const std::string& our, const std::string& theirs) {
              // endedReason values of Vapi's end-of-call-report.
              const std::map<std::string, std::string> reason{
                  {"human", "customer-ended-call"},
                  {"voicemail", "voicemail"},
                  {"no_answer", "customer-did-not-answer"},
                  {"busy", "customer-busy"},
                  {"invalid_number", "call.start.error-invalid-number"}};
              return R"({"message":{"type":"end-of-call-report","endedReason":")" +
                     reason.at(outcome) + R"(","durationSeconds":12.5,"call":{"id":")" + theirs +
                     R"(","metadata":{"vcs_call_id":")" + our + R"("}}}})";
            },
            [](http_client& client, const rapidjson::Value& sent, const std::string&,
               const std::string& body, bool forged) {
              auto secret = forged ? std::string(64, '0') : str(sent["server"], "secret");
              return post_json(client, path_of(str(sent["server"], "url")), body,
                               {{"X-Vapi-Secret", secret}});
            }};
  if (kind == "provider_b")
    return {"VCS_PROVIDER_B_BASE_URL",
            R"({"voice_provider":"provider_b","provider_b_api_key":"key_b_matrix"})",
            201,
            R"({"call_id":"rb-{n}","call_status":"registered"})",
            "rb-",
            [](const rapidjson::Value& sent) { return str(sent["metadata"], "vcs_call_id"); },
            [](const std::string& outcome, const std::string& our, const std::string& theirs) {
              // Retell's disconnection_reason values.
              const std::map<std::string, std::string> reason{
                  {"human", "user_hangup"},
                  {"voicemail", "voicemail_reached"},
                  {"no_answer", "dial_no_answer"},
                  {"busy", "dial_busy"},
                  {"invalid_number", "invalid_destination"}};
              return R"({"event":"call_ended","call":{"call_id":")" + theirs +
                     R"(","metadata":{"vcs_call_id":")" + our +
                     R"("},"call_status":"ended","disconnection_reason":")" + reason.at(outcome) +
                     R"(","duration_ms":12500}})";
            },
            [](http_client& client, const rapidjson::Value& sent, const std::string&,
               const std::string& body, bool forged) {
              auto signature = domain::sign_provider(domain::provider_b_signature,
                                                     forged ? "another_key" : "key_b_matrix", body,
                                                     unix_ms_now());
              return post_json(client, path_of(str(sent["agent_override"]["agent"], "webhook_url")),
                               body, {{"X-Retell-Signature", signature}});
            }};
  if (kind == "provider_c")
    return {
        "VCS_PROVIDER_C_BASE_URL",
        R"({"voice_provider":"provider_c","provider_c_api_key":"sk_c_matrix",)"
        R"("provider_c_webhook_id":"wh_1","provider_c_webhook_secret_key":"wsec_c_matrix"})",
        200,
        R"({"success":true,"message":"Success","conversation_id":"conv-{n}","callSid":"CA{n}"})",
        "conv-",
        [](const rapidjson::Value& sent) {
          return str(sent["conversation_initiation_client_data"]["dynamic_variables"],
                     "vcs_call_id");
        },
        [](const std::string& outcome, const std::string& our, const std::string& theirs) {
          const std::string variables =
              R"("conversation_initiation_client_data":{"dynamic_variables":{"vcs_call_id":")" +
              our + R"("}})";
          // A conversation that took place: the post-call transcription,
          // its transcript holding the voicemail tool's result when a
          // machine answered.
          if (outcome == "human" || outcome == "voicemail") {
            const std::string tool =
                outcome == "human"
                    ? std::string{}
                    : R"(,{"role":"agent","message":null,"tool_results":[{"request_id":"t1",)"
                      R"("tool_name":"voicemail_detection","result_value":"Voicemail detected",)"
                      R"("is_error":false,"result_type":"voicemail_detection_success",)"
                      R"("status":"success","voicemail_message":null,"reason":"beep"}]})";
            return R"({"type":"post_call_transcription","event_timestamp":1739537297,)"
                   R"("data":{"agent_id":"asst_1","conversation_id":")" +
                   theirs +
                   R"(","status":"done","transcript":[{"role":"agent","message":"Hi",)"
                   R"("time_in_call_secs":0})" +
                   tool + R"(],"metadata":{"call_duration_secs":12.5,"termination_reason":""},)" +
                   variables + "}}";
          }
          // One that never connected: the initiation failure, with the
          // SIP trunk's answer.
          const std::map<std::string, std::pair<std::string, int>> failure{
              {"no_answer", {"no-answer", 480}},
              {"busy", {"busy", 486}},
              {"invalid_number", {"unknown", 404}}};
          const auto& [reason, sip] = failure.at(outcome);
          return R"({"type":"call_initiation_failure","event_timestamp":1759931652,)"
                 R"("data":{"agent_id":"asst_1","conversation_id":")" +
                 theirs + R"(","failure_reason":")" + reason + R"(",)" + variables +
                 R"(,"metadata":{"type":"sip","body":{"to_number":"+14155550000",)"
                 R"("sip_status_code":)" +
                 std::to_string(sip) + R"(,"error_reason":"INVITE failed"}}}})";
        },
        [](http_client& client, const rapidjson::Value&, const std::string& public_id,
           const std::string& body, bool forged) {
          auto signature =
              domain::sign_provider(domain::provider_c_signature,
                                    forged ? "sk_c_matrix" : "wsec_c_matrix", body, unix_ms_now());
          return post_json(client, "/webhooks/provider-c/" + public_id, body,
                           {{"ElevenLabs-Signature", signature}});
        }};
  return {"VCS_PROVIDER_D_BASE_URL",
          R"({"voice_provider":"provider_d","provider_d_api_key":"key_d_matrix"})",
          200,
          R"({"status":"success","message":"Call successfully queued.","call_id":"bd-{n}",)"
          R"("batch_id":null})",
          "bd-",
          [](const rapidjson::Value& sent) { return str(sent["metadata"], "vcs_call_id"); },
          [](const std::string& outcome, const std::string& our, const std::string& theirs) {
            // Bland's call object: answered_by tells a person, a machine and
            // no answer apart; it documents no busy line or invalid number.
            const std::map<std::string, std::string> answered_by{
                {"human", "human"}, {"voicemail", "voicemail"}, {"no_answer", "no-answer"}};
            auto it = answered_by.find(outcome);
            if (it == answered_by.end())
              return std::string{};
            return R"({"call_id":")" + theirs +
                   R"(","call_length":0.2,"completed":true,"queue_status":"complete",)"
                   R"("error_message":null,"answered_by":")" +
                   it->second + R"(","metadata":{"vcs_call_id":")" + our + R"("}})";
          },
          [](http_client& client, const rapidjson::Value& sent, const std::string&,
             const std::string& body, bool forged) {
            auto path = path_of(str(sent, "webhook"));
            if (forged)
              path = path.substr(0, path.rfind('/') + 1) + std::string(64, '0');
            return post_json(client, path, body);
          }};
}

// A vendor through its own API and callbacks: each outcome it reports
// reaches the call and the lead as the simulated provider's would, a forged
// report changes nothing, its 429 gives the attempt back and its 401 pauses
// the campaign.
void dialer_test::expect_each_outcome_of(const std::string& kind) {
  const auto vendor = vendor_case_of(kind);
  webhook_receiver fake;
  fake.respond_with(vendor.placed_status, vendor.placed_answer);
  service_process live{live_env(vendor.base_url_setting, fake)};
  http_client live_pub{"127.0.0.1", live.public_port()};
  auto p = registered(live_pub, vendor.registration);
  // Rounds on demand take every tenant's due campaigns, and the other
  // tests' reach this fake too: this test's requests name its assistant.
  const std::string assistant = "asst_matrix_" + tenant;
  auto created = pub("POST", "/api/v2/voice-campaigns",
                     R"({"name":"matrix","assistant_id":")" + assistant +
                         R"(","phone_number_id":"pn_1","tenant_voice_provider_id":")" + p +
                         R"(","start_date":"2030-01-01"})");
  ASSERT_EQ(created.status, 201u) << created.body;
  auto c = str(parse(created.body)["data"], "campaign_id");
  auto ours = [&] {
    std::vector<std::pair<std::size_t, webhook_receiver::request>> out;
    auto all = fake.received();
    for (std::size_t i = 0; i < all.size(); ++i)
      if (all[i].body.find("\"" + assistant + "\"") != std::string::npos)
        out.emplace_back(i, all[i]);
    return out;
  };
  // One lead per outcome the vendor reports.
  const std::vector<std::string> all_outcomes{"human", "voicemail", "no_answer", "busy",
                                              "invalid_number"};
  std::map<std::string, std::string> phone_of; // outcome -> lead
  for (std::size_t i = 0; i < all_outcomes.size(); ++i)
    if (!vendor.report(all_outcomes[i], "1", "x").empty()) {
      phone_of[all_outcomes[i]] = "+1415555270" + std::to_string(i + 1);
      add_lead(c, phone_of[all_outcomes[i]]);
    }
  set_status(c, "ACTIVE");
  run_on(live, "2030-01-02T12:00:00Z");
  ASSERT_TRUE(eventually([&] { return ours().size() == phone_of.size(); }));
  const auto placed = ours();
  // The placement request of each lead, and the vendor's id for its call
  // (the fake numbers every request it answers).
  auto placement_of = [&](const std::string& phone) {
    for (const auto& [n, req] : placed)
      if (req.body.find("\"" + phone + "\"") != std::string::npos)
        return std::make_pair(parse(req.body), vendor.vendor_id_prefix + std::to_string(n + 1));
    ADD_FAILURE() << "no placement for " << phone;
    return std::make_pair(parse("{}"), std::string{});
  };
  ASSERT_TRUE(eventually([&] {
    auto list = calls(c);
    return list["calls"].Size() == phone_of.size();
  }));

  // A forged report is refused and changes nothing.
  {
    auto [sent, theirs] = placement_of(phone_of["human"]);
    auto body = vendor.report("human", vendor.our_call_id(sent), theirs);
    EXPECT_EQ(vendor.callback(live_pub, sent, p, body, true).status, 401u);
    std::this_thread::sleep_for(200ms);
    auto status = lead_status(c, phone_of["human"]);
    EXPECT_TRUE(status == "QUEUED" || status == "IN_PROGRESS") << status;
  }
  std::map<std::string, std::string> call_of; // outcome -> our call id
  for (const auto& [outcome, phone] : phone_of) {
    auto [sent, theirs] = placement_of(phone);
    call_of[outcome] = vendor.our_call_id(sent);
    auto body = vendor.report(outcome, call_of[outcome], theirs);
    auto r = vendor.callback(live_pub, sent, p, body, false);
    ASSERT_EQ(r.status, 200u) << outcome << ": " << r.body;
    EXPECT_NE(r.body.find("\"applied\":true"), std::string::npos) << outcome << ": " << r.body;
  }
  ASSERT_TRUE(eventually([&] {
    for (const auto& [outcome, phone] : phone_of)
      if (auto s = lead_status(c, phone); s == "QUEUED" || s == "IN_PROGRESS")
        return false;
    return true;
  }));
  auto by_phone = leads(c);
  for (const auto& [outcome, phone] : phone_of) {
    SCOPED_TRACE(outcome);
    auto call = read_call(live_pub, c, call_of[outcome]);
    EXPECT_EQ(str(call["data"], "outcome"), outcome);
    const auto& lead = by_phone[phone];
    if (outcome == "human") {
      EXPECT_EQ(str(lead, "call_status"), "COMPLETED");
    } else if (outcome == "invalid_number") {
      EXPECT_EQ(str(lead, "call_status"), "FAILED");
      EXPECT_TRUE(lead["invalid"].GetBool());
    } else {
      // Not answered (voicemail is not, by default): called again later.
      EXPECT_EQ(str(lead, "call_status"), "IDLE");
      EXPECT_EQ(str(lead, "call_error_reason"), outcome);
      EXPECT_EQ(lead["attempts_made"].GetInt(), 1);
    }
  }

  // The vendor is full: the attempt is given back.
  fake.respond_with(429, R"({"message":"Too many concurrent calls"})");
  expect_attempt_given_back(live, c, kind + ": HTTP 429");
  // Credentials refused: the campaign pauses with its own reason.
  fake.respond_with(401, R"({"message":"Invalid API key"})");
  add_lead(c, "+14155552709");
  run_on(live, "2030-01-02T12:10:00Z");
  ASSERT_TRUE(eventually([&] { return campaign_status(c) == "PAUSED"; }));
  EXPECT_EQ(pause_reason(c), "provider_credentials");
  EXPECT_EQ(leads(c)["+14155552709"]["attempts_made"].GetInt(), 0);
  EXPECT_EQ(live.terminate(), 0);
}

TEST_F(dialer_test, provider_a_reports_each_outcome_to_the_call_and_the_lead) {
  expect_each_outcome_of("provider_a");
}

TEST_F(dialer_test, provider_b_reports_each_outcome_to_the_call_and_the_lead) {
  expect_each_outcome_of("provider_b");
}

TEST_F(dialer_test, provider_c_reports_each_outcome_to_the_call_and_the_lead) {
  expect_each_outcome_of("provider_c");
}

TEST_F(dialer_test, provider_d_reports_each_outcome_to_the_call_and_the_lead) {
  expect_each_outcome_of("provider_d");
}

TEST_F(dialer_test, higher_priority_first_then_the_oldest_next_attempt) {
  // One slot, so each round places one call; a start date keeps the rounds of
  // the clock out.
  auto c = campaign(provider(1), R"(,"start_date":"2030-01-01")");
  add_lead(c, "+14155550001"); // priority 0
  add_lead(c, "+14155550002"); // priority 5, never called
  add_lead(c, "+14155552671"); // priority 5, due since 2029
  set_priority(c, "+14155550002", 5);
  set_priority(c, "+14155552671", 5, "2029-06-01T00:00:00Z");
  set_status(c, "ACTIVE");
  std::vector<std::string> order;
  for (int i = 0; i < 3; ++i) {
    run(at("2030-01-02T12:00:00Z") + std::chrono::minutes(i));
    ASSERT_TRUE(eventually([&] { return call_count(c) == static_cast<std::size_t>(i + 1); }));
    auto list = calls(c);
    order.push_back(str(list["calls"][0], "phone_number"));
    ASSERT_TRUE(eventually([&] { return lead_status(c, order.back()) == "COMPLETED"; }));
  }
  EXPECT_EQ(order, (std::vector<std::string>{"+14155550002", "+14155552671", "+14155550001"}));
}

TEST_F(dialer_test, max_daily_attempts_count_per_local_day_of_the_campaign_zone) {
  // Asia/Kolkata is UTC+5:30: 10:00Z and 18:00Z on 2030-01-05 are the same
  // local day (15:30 and 23:30); 19:00Z is 00:30 on the 6th.
  auto c = campaign(provider(5), R"(,"start_date":"2030-01-01","timezone":"Asia/Kolkata",)"
                                 R"("max_call_attempts":3,"max_daily_attempts":1,)"
                                 R"("min_gap_between_attempts":3)");
  add_lead(c, "+14155552671", "busy");
  set_status(c, "ACTIVE");
  run(at("2030-01-05T10:00:00Z"));
  ASSERT_TRUE(
      eventually([&] { return call_count(c) == 1 && lead_status(c, "+14155552671") == "IDLE"; }));
  run(at("2030-01-05T18:00:00Z"));
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(call_count(c), 1u);
  run(at("2030-01-05T19:00:00Z"));
  EXPECT_EQ(call_count(c), 2u);
}

TEST_F(dialer_test, a_billing_pause_stops_dialing_until_the_payment_is_resolved) {
  auto c = campaign(provider(5), R"(,"start_date":"2030-01-01")");
  auto subscription = subscribe_client(c);
  add_lead(c, "+14155552671");
  set_status(c, "ACTIVE");
  auto payment = issue_payment(subscription);
  set_payment(payment, "OVERDUE");
  EXPECT_EQ(campaign_status(c), "PAUSED");
  // The pause is announced with its reason.
  auto events = parse(pub("GET", "/api/v2/events?limit=1000").body);
  auto paused = std::count_if(events["data"].Begin(), events["data"].End(), [&](const auto& e) {
    return str(e, "type") == "campaign.paused" && str(e, "campaign_id") == c &&
           str(e["payload"]["data"], "pause_reason") == "billing";
  });
  EXPECT_EQ(paused, 1);
  run(at("2030-01-02T12:00:00Z"));
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(call_count(c), 0u);
  set_payment(payment, "PAID");
  EXPECT_EQ(campaign_status(c), "ACTIVE");
  run(at("2030-01-02T12:00:01Z"));
  EXPECT_EQ(call_count(c), 1u);
}

// Every status change of a campaign is one event on the feed, named by the
// status it reached, with the status before and what changed it: the status
// route, its client's payment, its start date.
TEST_F(dialer_test, every_status_change_is_one_event_naming_what_changed_it) {
  auto c = campaign(provider(5), R"(,"start_date":"2030-01-01")");
  auto subscription = subscribe_client(c);
  add_lead(c, "+14155552671");
  for (const char* status : {"SCHEDULED", "ACTIVE", "PAUSED", "ACTIVE", "DRAFT", "ACTIVE"})
    set_status(c, status);
  auto payment = issue_payment(subscription);
  set_payment(payment, "OVERDUE");
  set_payment(payment, "PAID");
  set_status(c, "ENDED");
  // A scheduled campaign reaching its start date.
  auto later = campaign(provider(5), R"(,"start_date":"2030-01-01")");
  add_lead(later, "+14155552672");
  set_status(later, "SCHEDULED");
  run(at("2030-01-02T12:00:00Z"));

  auto changes_of = [&](const std::string& campaign_id) {
    std::vector<std::string> out;
    auto events = parse(pub("GET", "/api/v2/events?limit=1000").body);
    for (const auto& e : events["data"].GetArray()) {
      if (str(e, "campaign_id") != campaign_id || str(e, "type").rfind("campaign.", 0) != 0)
        continue;
      const auto& data = e["payload"]["data"];
      out.push_back(str(e, "type") + " " + str(data, "previous_status") + ">" +
                    str(data, "campaign_status") + " " + str(data, "changed_by"));
    }
    return out;
  };
  EXPECT_EQ(changes_of(c), (std::vector<std::string>{
                               "campaign.scheduled DRAFT>SCHEDULED manual",
                               "campaign.activated SCHEDULED>ACTIVE manual",
                               "campaign.paused ACTIVE>PAUSED manual",
                               "campaign.activated PAUSED>ACTIVE manual",
                               "campaign.returned_to_draft ACTIVE>DRAFT manual",
                               "campaign.activated DRAFT>ACTIVE manual",
                               "campaign.paused ACTIVE>PAUSED billing",
                               "campaign.activated PAUSED>ACTIVE billing",
                               "campaign.ended ACTIVE>ENDED manual",
                           }));
  ASSERT_TRUE(eventually([&] { return campaign_status(later) == "ACTIVE"; }));
  EXPECT_EQ(changes_of(later), (std::vector<std::string>{
                                   "campaign.scheduled DRAFT>SCHEDULED manual",
                                   "campaign.activated SCHEDULED>ACTIVE schedule",
                               }));
}

// A client whose product bills no minute beyond its own (price 0) has its campaigns
// paused as usage_exhausted once those are used; add-on minutes give back
// what that pause took, and never a campaign paused by hand.
TEST_F(dialer_test, a_client_out_of_minutes_pauses_its_campaigns_until_minutes_come_back) {
  auto c = campaign(provider(1));
  subscribe_client(c, R"("min_minutes_included":1,"additional_minute_price":"0")");
  for (const auto* phone : {"+14155552671", "+14155552672", "+14155552673"})
    add_lead(c, phone, "human");
  set_status(c, "ACTIVE");
  // One answered call bills 61 seconds: more than the one minute included.
  ASSERT_TRUE(eventually([&] { return campaign_status(c) == "PAUSED"; }));
  EXPECT_EQ(pause_reason(c), "usage_exhausted");
  auto events = parse(pub("GET", "/api/v2/events?limit=1000").body);
  auto paused = std::count_if(events["data"].Begin(), events["data"].End(), [&](const auto& e) {
    return str(e, "type") == "campaign.paused" && str(e, "campaign_id") == c &&
           str(e["payload"]["data"], "pause_reason") == "usage_exhausted";
  });
  EXPECT_EQ(paused, 1);
  const auto placed = call_count(c);
  EXPECT_GE(placed, 1u);
  EXPECT_LT(placed, 3u) << "the pause stopped the dialing";

  add_minutes("10");
  EXPECT_EQ(campaign_status(c), "ACTIVE") << "the add-on minutes resumed it at once";
  EXPECT_EQ(pause_reason(c), "");
  ASSERT_TRUE(eventually([&] { return call_count(c) == 3; }));

  // Paused by hand: minutes do not resume it.
  set_status(c, "PAUSED");
  add_minutes("5");
  EXPECT_EQ(campaign_status(c), "PAUSED");
  EXPECT_EQ(pause_reason(c), "manual");
}

// A pause changed by hand leaves its record behind; a later pause of the
// campaign takes its place, so each resume still finds its own.
TEST_F(dialer_test, a_later_pause_replaces_the_record_of_one_changed_by_hand) {
  auto c = campaign(provider(1));
  auto subscription =
      subscribe_client(c, R"("min_minutes_included":1,"additional_minute_price":"0")");
  add_lead(c, "+14155552671", "human");
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] { return pause_reason(c) == "usage_exhausted"; }));
  set_status(c, "PAUSED");
  set_status(c, "ACTIVE");
  auto payment = issue_payment(subscription);
  set_payment(payment, "OVERDUE");
  EXPECT_EQ(pause_reason(c), "billing");
  // Paid: the billing pause ends, and the minutes, still used up, pause it
  // again for what they are.
  set_payment(payment, "PAID");
  EXPECT_EQ(campaign_status(c), "PAUSED");
  EXPECT_EQ(pause_reason(c), "usage_exhausted");
  add_minutes("10");
  EXPECT_EQ(campaign_status(c), "ACTIVE");
}

TEST_F(dialer_test, mark_as_unanswered_requeues_an_answered_lead_for_a_new_round) {
  auto c = campaign(provider(5));
  add_lead(c, "+14155552671", "human");
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "COMPLETED"; }));
  auto r = pub("PATCH", "/api/v2/voice-campaigns/" + c + "/leads/update/bulk",
               R"([{"phone_number":"+14155552671","mark_as_unanswered":true}])");
  ASSERT_EQ(r.status, 200u) << r.body;
  // Called again by the rounds of the clock (idle poll 1 s here).
  ASSERT_TRUE(eventually([&] { return call_count(c) == 2; }));
  ASSERT_TRUE(eventually([&] { return lead_status(c, "+14155552671") == "COMPLETED"; }));
  EXPECT_EQ(leads(c)["+14155552671"]["attempts_made"].GetInt(), 1);
}

// Whether the receiver got the event with this id.
bool received_event(const webhook_receiver& receiver, const std::string& event_id) {
  for (const auto& req : receiver.received())
    if (auto it = req.headers.find("x-vcs-event-id");
        it != req.headers.end() && it->second == event_id)
      return true;
  return false;
}

// A deactivated tenant, or one whose every key is disabled, is quiet: due
// campaigns are not dialed and pending webhooks wait; switched back on, both
// resume. The rounds run on the test's clock (the campaign starts in 2031
// and lead B may be called from 2032 on), so the node's own rounds on the
// real clock never dial them.
TEST_F(dialer_test, a_switched_off_tenant_neither_dials_nor_sends_webhooks_until_switched_on) {
  webhook_receiver receiver;
  ASSERT_EQ(op("POST", "/admin/v1/tenants/" + tenant + "/webhook-secret").status, 201u);
  auto c = campaign(provider(5), R"(,"start_date":"2031-01-01","timezone":"UTC","webhook_url":")" +
                                     receiver.url() + "\"");
  add_lead(c, "+14155552671");
  add_lead(c, "+14155552672");
  set_priority(c, "+14155552672", 0, "2032-01-01T00:00:00Z");
  set_status(c, "SCHEDULED");
  const auto tenant_db = *domain::decode_global_id(domain::entity::tenant, tenant);
  const auto campaign_db = *domain::decode_global_id(domain::entity::campaign, c);
  auto enqueue = [&](const std::string& event_id) {
    auto sql = storage::open_session(database_url());
    storage::enqueue_webhook(*sql, tenant_db, campaign_db, receiver.url(), event_id, "test.event",
                             R"({"id":")" + event_id + "\"}");
  };
  auto patch = [&](const std::string& target, const std::string& body) {
    auto r = op("PATCH", target, body);
    ASSERT_EQ(r.status, 200u) << r.body;
  };
  const auto deactivated_event = "evt-quiet-" + tenant + "-1";
  const auto disabled_event = "evt-quiet-" + tenant + "-2";

  patch("/admin/v1/tenants/" + tenant, R"({"active":false})");
  run(at("2031-01-01T00:00:01Z"));
  EXPECT_EQ(call_count(c), 0u);
  enqueue(deactivated_event);
  std::this_thread::sleep_for(1s); // 20 webhook rounds, 10 dial rounds
  EXPECT_FALSE(received_event(receiver, deactivated_event));
  EXPECT_EQ(call_count(c), 0u);

  patch("/admin/v1/tenants/" + tenant, R"({"active":true})");
  EXPECT_TRUE(eventually([&] { return received_event(receiver, deactivated_event); }));
  run(at("2031-01-01T00:00:02Z"));
  EXPECT_EQ(call_count(c), 1u);

  patch("/admin/v1/api-keys/" + key_id, R"({"status":"Disabled"})");
  run(at("2032-01-01T00:00:01Z"));
  enqueue(disabled_event);
  std::this_thread::sleep_for(1s);
  EXPECT_FALSE(received_event(receiver, disabled_event));
  EXPECT_EQ(call_count(c), 1u);

  patch("/admin/v1/api-keys/" + key_id, R"({"status":"Active"})");
  EXPECT_TRUE(eventually([&] { return received_event(receiver, disabled_event); }));
  run(at("2032-01-01T00:00:02Z"));
  EXPECT_EQ(call_count(c), 2u);
}

TEST_F(dialer_test, the_campaign_read_shows_its_progress_and_when_it_dials_next) {
  auto c = campaign(provider(5), R"(,"max_call_attempts":1)");
  add_lead(c, "+14155552671", "human");
  add_lead(c, "+14155552672", "failed");
  auto read = [&] { return parse(pub("GET", "/api/v2/voice-campaigns/" + c).body); };
  EXPECT_TRUE(read()["data"]["next_dial_at"].IsNull()) << "DRAFT";
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] {
    return lead_status(c, "+14155552671") == "COMPLETED" &&
           lead_status(c, "+14155552672") == "FAILED";
  }));
  rapidjson::Document d;
  ASSERT_TRUE(eventually([&] {
    d = read();
    return d["data"]["lead_counts"]["COMPLETED"].GetInt64() == 1;
  }));
  auto& data = d["data"];
  EXPECT_EQ(data["lead_counts"]["FAILED"].GetInt64(), 1);
  EXPECT_EQ(data["lead_counts"]["IDLE"].GetInt64(), 0);
  EXPECT_EQ(data["answered_count"].GetInt64(), 1);
  EXPECT_EQ(data["failed_count"].GetInt64(), 1);
  EXPECT_EQ(data["dialable_count"].GetInt64(), 0);
  EXPECT_TRUE(data["next_dial_at"].IsNull()) << "nothing left to call";
}

TEST_F(dialer_test, the_next_dial_is_the_next_opening_of_the_daily_window) {
  // Every day but today (UTC): the window opens at the next midnight UTC.
  const char* names[] = {"SUNDAY",   "MONDAY", "TUESDAY", "WEDNESDAY",
                         "THURSDAY", "FRIDAY", "SATURDAY"};
  auto today = date::weekday{date::floor<date::days>(domain::now())}.c_encoding();
  std::string days;
  for (unsigned i = 0; i < 7; ++i)
    if (i != today)
      days += std::string{days.empty() ? "" : ","} + "\"" + names[i] + "\"";
  auto c = campaign(provider(5), R"(,"timezone":"UTC","days_of_week":[)" + days + "]");
  add_lead(c, "+14155552671", "human");
  set_status(c, "ACTIVE");
  auto midnight = date::floor<date::days>(domain::now()) + date::days{1};
  auto d = parse(pub("GET", "/api/v2/voice-campaigns/" + c).body);
  EXPECT_EQ(str(d["data"], "next_dial_at"), domain::format_utc(midnight));
  EXPECT_EQ(d["data"]["dialable_count"].GetInt64(), 1);
  EXPECT_EQ(call_count(c), 0u);
}

TEST_F(dialer_test, the_tenant_lists_calls_per_campaign_and_lead_with_filters) {
  auto c = campaign(provider(5), R"(,"max_call_attempts":1)");
  add_lead(c, "+14155552671", "human");
  add_lead(c, "+14155552672", "failed");
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] {
    return lead_status(c, "+14155552671") == "COMPLETED" &&
           lead_status(c, "+14155552672") == "FAILED";
  }));
  auto page = [&](const std::string& query) {
    auto r = pub("GET", "/api/v2/voice-campaigns/" + c + "/calls" + query);
    EXPECT_EQ(r.status, 200u) << query << r.body;
    return parse(r.body);
  };
  auto all = page("");
  ASSERT_EQ(all["data"].Size(), 2u);
  EXPECT_EQ(all["meta"]["total"].GetInt64(), 2);
  EXPECT_GT(std::stoll(str(all["data"][0], "id")), std::stoll(str(all["data"][1], "id")))
      << "newest first";
  auto lead_ids = leads(c);
  for (auto& call : all["data"].GetArray()) {
    auto phone = str(call, "phone_number");
    EXPECT_EQ(str(call, "campaign_lead_id"), str(lead_ids[phone], "id"));
    EXPECT_EQ(call["attempt"].GetInt(), 1);
    EXPECT_TRUE(call["started_at"].IsString());
    EXPECT_TRUE(call["ended_at"].IsString());
    if (phone == "+14155552671") {
      EXPECT_EQ(str(call, "status"), "COMPLETED");
      EXPECT_EQ(str(call, "outcome"), "human");
      EXPECT_EQ(call["billed_seconds"].GetInt(), 61);
      EXPECT_EQ(str(call, "billed_minutes"), "1.02");
    } else {
      EXPECT_EQ(str(call, "status"), "FAILED");
      EXPECT_EQ(str(call, "outcome"), "failed");
    }
  }
  auto human = page("?outcome=human");
  ASSERT_EQ(human["data"].Size(), 1u);
  EXPECT_EQ(str(human["data"][0], "phone_number"), "+14155552671");
  auto one_lead = page("?campaign_lead_id=" + str(lead_ids["+14155552672"], "id"));
  ASSERT_EQ(one_lead["data"].Size(), 1u);
  EXPECT_EQ(str(one_lead["data"][0], "phone_number"), "+14155552672");
  EXPECT_EQ(page("?status=FAILED")["meta"]["total"].GetInt64(), 1);
  auto later = domain::format_utc(domain::now() + 1h);
  auto earlier = domain::format_utc(domain::now() - 1h);
  EXPECT_EQ(page("?from=" + later)["meta"]["total"].GetInt64(), 0);
  EXPECT_EQ(page("?from=" + earlier + "&to=" + later)["meta"]["total"].GetInt64(), 2);
  auto first = page("?page_size=1&page=2");
  ASSERT_EQ(first["data"].Size(), 1u);
  EXPECT_EQ(str(first["data"][0], "id"), str(all["data"][1], "id"));

  for (const std::string& bad : std::vector<std::string>{
           "?outcome=hung_up", "?status=IDLE", "?campaign_lead_id=nope", "?from=yesterday",
           "?from=" + later + "&to=" + earlier, "?page=0",
           // Outside years 1 to 9999 once the offset is applied.
           "?from=0000-01-01T00:00:00%2B01:00", "?from=0001-01-01T00:00:00%2B01:00",
           "?to=9999-12-31T23:00:00-05:00"}) {
    auto r = pub("GET", "/api/v2/voice-campaigns/" + c + "/calls" + bad);
    EXPECT_EQ(r.status, 400u) << bad << r.body;
  }
  auto r = pub("GET", "/api/v2/voice-campaigns/" + c + "/calls?outcome=hung_up");
  EXPECT_EQ(parse(r.body)["valid_values"].Size(), 6u);

  auto stranger = op("POST", "/admin/v1/tenants", R"({"name":"calls-stranger","plan":"PRO"})");
  ASSERT_EQ(stranger.status, 201u) << stranger.body;
  auto stranger_key = str(parse(stranger.body)["api_key"], "key");
  auto theirs = pub_client.request("GET", "/api/v2/voice-campaigns/" + c + "/calls", {},
                                   bearer(stranger_key));
  EXPECT_EQ(theirs.status, 404u) << theirs.body;
}

// A call keeps what its provider reported at the end (the simulated
// provider's, scripted per lead): the list shows it without the transcript,
// the call read with it, call.ended carries it, and the client detail counts
// the calls and their evaluations.
TEST_F(dialer_test, a_call_keeps_the_providers_report_and_the_client_detail_counts_it) {
  auto c = campaign(provider(5), R"(,"max_call_attempts":1)");
  subscribe_client(c);
  auto lead = [&](const std::string& phone, const std::string& outcome,
                  const std::string& evaluation) {
    std::string fields = R"({"simulated_outcomes":")" + outcome + "\"";
    if (!evaluation.empty())
      fields += R"(,"simulated_evaluations":")" + evaluation + "\"";
    auto r = pub("POST", "/api/v2/voice-campaigns/" + c + "/leads",
                 R"({"phone_number":")" + phone + R"(","custom_fields":)" + fields + "}}");
    ASSERT_EQ(r.status, 201u) << r.body;
  };
  lead("+14155552671", "human", "Pass");
  lead("+14155552672", "human", "false");
  lead("+14155552673", "no_answer", "");
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] {
    return lead_status(c, "+14155552671") == "COMPLETED" &&
           lead_status(c, "+14155552672") == "COMPLETED" &&
           lead_status(c, "+14155552673") == "FAILED";
  }));
  auto list = parse(pub("GET", "/api/v2/voice-campaigns/" + c + "/calls").body);
  ASSERT_EQ(list["data"].Size(), 3u);
  std::map<std::string, std::string> call_ids;
  for (const auto& call : list["data"].GetArray()) {
    auto phone = str(call, "phone_number");
    call_ids[phone] = str(call, "id");
    EXPECT_FALSE(call.HasMember("transcript")) << "a list leaves the transcript out";
    EXPECT_TRUE(call["recording_url"].IsNull());
    if (phone == "+14155552673") {
      EXPECT_EQ(str(call, "ended_reason"), "customer-did-not-answer");
      EXPECT_TRUE(call["summary"].IsNull());
      EXPECT_TRUE(call["success_evaluation"].IsNull());
      EXPECT_TRUE(call["structured_data"].IsNull());
      EXPECT_EQ(str(call, "cost"), "0.0000");
    } else {
      EXPECT_EQ(str(call, "ended_reason"), "customer-ended-call");
      EXPECT_EQ(str(call, "summary"),
                "Simulated call to " + phone + ", attempt 1: a person answered.");
      EXPECT_EQ(str(call, "success_evaluation"), phone == "+14155552671" ? "Pass" : "false");
      EXPECT_TRUE(call["structured_data"]["simulated"].GetBool());
      EXPECT_EQ(str(call["structured_data"], "outcome"), "human");
      EXPECT_EQ(str(call, "cost"), "0.0610");
    }
  }
  auto read = [&](const std::string& campaign_id, const std::string& id) {
    return pub("GET", "/api/v2/voice-campaigns/" + campaign_id + "/calls/" + id);
  };
  auto one = read(c, call_ids["+14155552671"]);
  ASSERT_EQ(one.status, 200u) << one.body;
  auto d = parse(one.body);
  EXPECT_EQ(str(d, "message"), "Call retrieved successfully");
  EXPECT_EQ(str(d["data"], "transcript"),
            "AI: Hello, this is a simulated call.\nUser: Hello, go ahead.");
  EXPECT_EQ(str(d["data"], "success_evaluation"), "Pass");
  auto other = campaign(provider(1));
  for (const auto& [campaign_id, id] : std::vector<std::pair<std::string, std::string>>{
           {c, "999999999"}, {c, "x"}, {other, call_ids["+14155552671"]}}) {
    auto r = read(campaign_id, id);
    EXPECT_EQ(r.status, 404u) << id << r.body;
    EXPECT_EQ(str(parse(r.body), "message"), "Call not found");
  }

  // call.ended carries the report but not the transcript.
  auto events = parse(pub("GET", "/api/v2/events?limit=1000").body);
  int ended = 0;
  for (const auto& e : events["data"].GetArray()) {
    if (str(e, "type") != "call.ended" || str(e, "campaign_id") != c)
      continue;
    const auto& data = e["payload"]["data"];
    ++ended;
    EXPECT_FALSE(data.HasMember("transcript"));
    EXPECT_TRUE(data["ended_reason"].IsString());
    if (str(data, "phone_number") == "+14155552672") {
      EXPECT_EQ(str(data, "success_evaluation"), "false");
      EXPECT_EQ(str(data, "cost"), "0.0610");
      EXPECT_EQ(str(data["structured_data"], "outcome"), "human");
    }
  }
  EXPECT_EQ(ended, 3);

  // The client detail counts every call and the evaluated ones per verdict.
  auto detail = parse(pub("GET", "/api/v2/clients/" + client_id).body);
  const auto& cs = detail["campaigns"];
  EXPECT_EQ(cs["total_calls"].GetInt(), 3);
  const auto& one_campaign = cs["campaigns"][0];
  EXPECT_EQ(one_campaign["calls_count"].GetInt(), 3);
  const auto& m = one_campaign["success_metrics"];
  EXPECT_EQ(m["answered_leads"].GetInt(), 2);
  EXPECT_EQ(m["evaluated_calls"].GetInt(), 2);
  EXPECT_EQ(m["successful_calls"].GetInt(), 1);
  EXPECT_DOUBLE_EQ(m["success_rate"].GetDouble(), 50.0);
  const auto& freq = one_campaign["success_evaluation_frequency"];
  ASSERT_EQ(freq.Size(), 2u);
  EXPECT_EQ(str(freq[0], "status"), "success");
  EXPECT_EQ(str(freq[1], "status"), "failure");
  for (const auto& f : freq.GetArray()) {
    EXPECT_EQ(f["count"].GetInt(), 1);
    EXPECT_DOUBLE_EQ(f["percentage"].GetDouble(), 50.0);
  }
}

// The failure breaker: a provider that starts failing calls pauses the
// campaign (reason failure_breaker, campaign.paused names it) before it
// spends every lead; a resume by hand starts an empty window; pausing by
// hand names its reason too.
TEST_F(dialer_test, the_failure_breaker_pauses_a_campaign_its_provider_fails) {
  auto c = campaign(provider(1), R"(,"max_call_attempts":1,"failure_breaker_calls":3,)"
                                 R"("failure_breaker_percent":100)");
  auto read = [&] { return parse(pub("GET", "/api/v2/voice-campaigns/" + c).body); };
  EXPECT_EQ(read()["data"]["failure_breaker_calls"].GetInt(), 3);
  EXPECT_EQ(read()["data"]["failure_breaker_percent"].GetInt(), 100);
  // One line: calls end one after the other. Two calls go through, then
  // the provider fails every call.
  add_lead(c, "+14155550101", "human");
  add_lead(c, "+14155550102", "human");
  for (int i = 0; i < 8; ++i)
    add_lead(c, "+1415555020" + std::to_string(i), "failed");
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] { return campaign_status(c) == "PAUSED"; }));
  EXPECT_EQ(str(read()["data"], "pause_reason"), "failure_breaker");
  // Three failures in a row tripped it: the other leads were not called.
  std::this_thread::sleep_for(500ms);
  auto placed = call_count(c);
  EXPECT_GE(placed, 5u);
  EXPECT_LT(placed, 10u);
  auto all = leads(c);
  EXPECT_EQ(str(all["+14155550101"], "call_status"), "COMPLETED");
  int untouched = 0;
  for (int i = 0; i < 8; ++i)
    untouched += str(all["+1415555020" + std::to_string(i)], "call_status") == "IDLE";
  EXPECT_GE(untouched, 1);
  auto paused_events = [&](const std::string& reason) {
    int n = 0;
    auto events = parse(pub("GET", "/api/v2/events?limit=1000").body);
    for (const auto& e : events["data"].GetArray())
      if (str(e, "type") == "campaign.paused" && str(e, "campaign_id") == c) {
        const auto& data = e["payload"]["data"];
        EXPECT_EQ(str(data, "campaign_status"), "PAUSED");
        n += str(data, "pause_reason") == reason;
      }
    return n;
  };
  EXPECT_EQ(paused_events("failure_breaker"), 1);

  // Resumed by hand, the window starts empty: three new failures trip it
  // again, and only after more calls.
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] { return campaign_status(c) == "PAUSED"; }));
  EXPECT_GE(call_count(c), placed + 3);
  EXPECT_EQ(str(read()["data"], "pause_reason"), "failure_breaker");
  EXPECT_EQ(paused_events("failure_breaker"), 2);

  // A pause by hand is announced with its reason as well.
  set_status(c, "ACTIVE");
  set_status(c, "PAUSED");
  EXPECT_EQ(str(read()["data"], "pause_reason"), "manual");
  EXPECT_EQ(paused_events("manual"), 1);

  // Defaults without settings; out-of-range settings are refused.
  auto plain = parse(pub("GET", "/api/v2/voice-campaigns/" + campaign(provider(1))).body);
  EXPECT_EQ(plain["data"]["failure_breaker_calls"].GetInt(), 20);
  EXPECT_EQ(plain["data"]["failure_breaker_percent"].GetInt(), 50);
  auto bad = pub("PATCH", "/api/v2/voice-campaigns/" + c,
                 R"({"failure_breaker_calls":1001,"failure_breaker_percent":0})");
  EXPECT_EQ(bad.status, 400u) << bad.body;
  auto refusal = parse(bad.body);
  EXPECT_TRUE(refusal["errors"].HasMember("failure_breaker_calls"));
  EXPECT_TRUE(refusal["errors"].HasMember("failure_breaker_percent"));
  auto off = pub("PATCH", "/api/v2/voice-campaigns/" + c, R"({"failure_breaker_calls":0})");
  EXPECT_EQ(off.status, 200u) << off.body;
  EXPECT_EQ(read()["data"]["failure_breaker_calls"].GetInt(), 0);
}

// Each lead says why it is or is not being called and when it may be, by
// the rules the dialer applies (include=dial_state; the clock is the node's).
// The calling rules (data/calling_rules/rules.json) narrow a telemarketing
// campaign's window to each callee's legal hours, at their edges: the US
// federal 08:00-21:00 and Florida's 08:00-20:00, in the lead's own time.
TEST_F(dialer_test, a_telemarketing_campaign_calls_each_lead_only_in_its_legal_hours) {
  auto bad = op("PATCH", "/admin/v1/tenants/" + tenant, R"({"calling_purpose":"SALES"})");
  EXPECT_EQ(bad.status, 400u) << bad.body;
  EXPECT_TRUE(parse(bad.body)["errors"].HasMember("calling_purpose")) << bad.body;
  auto set = op("PATCH", "/admin/v1/tenants/" + tenant, R"({"calling_purpose":"TELEMARKETING"})");
  ASSERT_EQ(set.status, 200u) << set.body;
  EXPECT_EQ(str(parse(set.body), "calling_purpose"), "TELEMARKETING");
  const auto lead_in = [&](const std::string& c, const char* phone, const char* state) {
    auto r =
        pub("POST", "/api/v2/voice-campaigns/" + c + "/leads",
            R"({"phone_number":")" + std::string{phone} +
                R"(","custom_fields":{"simulated_outcomes":"human","state":")" + state + "\"}}");
    ASSERT_EQ(r.status, 201u) << r.body;
  };
  // The start date keeps the rounds of the clock out of it; the window is
  // the whole day in UTC, so only the rules hold a lead.
  auto c = campaign(provider(10), R"(,"start_date":"2030-01-01")");
  auto read = parse(pub("GET", "/api/v2/voice-campaigns/" + c).body);
  EXPECT_EQ(str(read["data"], "calling_purpose"), "TELEMARKETING");
  EXPECT_EQ(str(read["data"], "calling_purpose_from"), "tenant");
  lead_in(c, "+13055550101", "FL");
  lead_in(c, "+12125550102", "NY");
  lead_in(c, "+14155550103", "CA");
  set_status(c, "ACTIVE");
  // 2030-01-02 is a Wednesday: 12:59Z is 07:59 in Miami and New York.
  run(at("2030-01-02T12:59:00Z"));
  EXPECT_EQ(call_count(c), 0u);
  run(at("2030-01-02T13:00:00Z"));
  EXPECT_EQ(call_count(c), 2u) << "08:00 in the east";
  EXPECT_EQ(lead_status(c, "+14155550103"), "IDLE");
  run(at("2030-01-02T15:59:00Z"));
  EXPECT_EQ(call_count(c), 2u) << "07:59 in San Francisco";
  run(at("2030-01-02T16:00:00Z"));
  EXPECT_EQ(call_count(c), 3u);

  // 20:00 in the east: New York may still be called, Florida not; at 21:00
  // neither. Each lead is due from the instant named.
  lead_in(c, "+13055550104", "FL");
  lead_in(c, "+12125550105", "NY");
  lead_in(c, "+12125550106", "NY");
  lead_in(c, "+13055550108", "FL");
  set_priority(c, "+13055550104", 0, "2030-01-03T01:00:00Z");
  set_priority(c, "+12125550105", 0, "2030-01-03T01:00:00Z");
  set_priority(c, "+12125550106", 0, "2030-01-03T02:00:00Z");
  run(at("2030-01-03T00:59:00Z"));
  EXPECT_EQ(call_count(c), 4u) << "19:59 in Miami";
  EXPECT_NE(lead_status(c, "+13055550108"), "IDLE");
  run(at("2030-01-03T01:00:00Z"));
  EXPECT_EQ(call_count(c), 5u);
  EXPECT_NE(lead_status(c, "+12125550105"), "IDLE") << "20:00 in New York";
  EXPECT_EQ(lead_status(c, "+13055550104"), "IDLE") << "20:00 in Miami";
  run(at("2030-01-03T02:00:00Z"));
  EXPECT_EQ(lead_status(c, "+12125550106"), "IDLE") << "21:00 in New York";
  EXPECT_EQ(call_count(c), 5u);
  // 08:00 the next morning both are called.
  run(at("2030-01-03T13:00:00Z"));
  EXPECT_EQ(call_count(c), 7u);

  // A campaign that says what it is overrides its tenant: an informational
  // one, which the data's hours do not govern, calls at 22:00 in Miami.
  auto info =
      campaign(provider(10), R"(,"start_date":"2030-01-01","calling_purpose":"INFORMATIONAL")");
  auto info_read = parse(pub("GET", "/api/v2/voice-campaigns/" + info).body);
  EXPECT_EQ(str(info_read["data"], "calling_purpose"), "INFORMATIONAL");
  EXPECT_EQ(str(info_read["data"], "calling_purpose_from"), "campaign");
  lead_in(info, "+13055550107", "FL");
  set_status(info, "ACTIVE");
  run(at("2030-01-03T03:00:00Z"));
  EXPECT_EQ(call_count(info), 1u);
  auto wrong = pub("PATCH", "/api/v2/voice-campaigns/" + info, R"({"calling_purpose":"sales"})");
  EXPECT_EQ(wrong.status, 400u) << wrong.body;
  EXPECT_TRUE(parse(wrong.body)["errors"].HasMember("calling_purpose")) << wrong.body;
}

// Florida's cap (three calls to a person in 24 hours) counts the tenant's
// calls to the number on all of its campaigns, whose passes run at once:
// four campaigns each holding the same Florida lead place three calls, and
// the fourth waits until the first is 24 hours old. A New York lead, which
// no cap governs, is called by all four.
TEST_F(dialer_test, floridas_cap_counts_a_numbers_calls_across_the_tenants_campaigns) {
  ASSERT_EQ(
      op("PATCH", "/admin/v1/tenants/" + tenant, R"({"calling_purpose":"TELEMARKETING"})").status,
      200u);
  std::vector<std::string> campaigns;
  for (int i = 0; i < 4; ++i) {
    auto c = campaign(provider(10), R"(,"start_date":"2030-01-01")");
    for (const auto& [phone, state] :
         {std::pair{"+13055550130", "FL"}, std::pair{"+12125550131", "NY"}}) {
      auto r =
          pub("POST", "/api/v2/voice-campaigns/" + c + "/leads",
              R"({"phone_number":")" + std::string{phone} +
                  R"(","custom_fields":{"simulated_outcomes":"human","state":")" + state + "\"}}");
      ASSERT_EQ(r.status, 201u) << r.body;
    }
    set_status(c, "ACTIVE");
    campaigns.push_back(c);
  }
  const auto called = [&](const char* phone) {
    std::size_t n = 0;
    for (const auto& c : campaigns)
      n += lead_status(c, phone) != "IDLE";
    return n;
  };
  // 2030-01-02 15:00Z is 10:00 in Miami and New York.
  run(at("2030-01-02T15:00:00Z"));
  EXPECT_EQ(called("+13055550130"), 3u);
  EXPECT_EQ(called("+12125550131"), 4u);
  run(at("2030-01-03T14:59:00Z"));
  EXPECT_EQ(called("+13055550130"), 3u) << "the first call is not yet 24 hours old";
  run(at("2030-01-03T15:00:00Z"));
  EXPECT_EQ(called("+13055550130"), 4u);
}

// A window in each lead's own time that the national rules of the
// campaign's country leave no minute is refused where it is set, naming
// the rule; the campaign keeps what it had.
TEST_F(dialer_test, a_window_the_calling_rules_leave_no_minute_is_refused) {
  const auto vp = provider(10);
  const auto create = [&](const std::string& extra) {
    return pub("POST", "/api/v2/voice-campaigns",
               R"({"name":"window","assistant_id":"a","phone_number_id":"p",)"
               R"("tenant_voice_provider_id":")" +
                   vp + R"(","calling_purpose":"TELEMARKETING","timezone":"America/New_York")" +
                   extra + "}");
  };
  auto late =
      create(R"(,"lead_local_time":true,"daily_start_time":"21:00","daily_end_time":"23:00")");
  ASSERT_EQ(late.status, 400u) << late.body;
  const std::string why = parse(late.body)["errors"]["daily_start_time"][0].GetString();
  EXPECT_NE(why.find("us-federal"), std::string::npos) << why;
  EXPECT_NE(why.find("https://www.ecfr.gov"), std::string::npos) << why;
  // In the campaign's zone, 21:00 in New York is 18:00 in Los Angeles.
  EXPECT_EQ(create(R"(,"daily_start_time":"21:00","daily_end_time":"23:00")").status, 201u);
  auto day =
      create(R"(,"lead_local_time":true,"daily_start_time":"09:00","daily_end_time":"17:00")");
  ASSERT_EQ(day.status, 201u) << day.body;
  const auto c = str(parse(day.body)["data"], "campaign_id");
  auto moved = pub("PATCH", "/api/v2/voice-campaigns/" + c,
                   R"({"daily_start_time":"21:30","daily_end_time":"23:00"})");
  EXPECT_EQ(moved.status, 400u) << moved.body;
  EXPECT_TRUE(parse(moved.body)["errors"].HasMember("daily_start_time")) << moved.body;
  EXPECT_EQ(str(parse(pub("GET", "/api/v2/voice-campaigns/" + c).body)["data"], "daily_start_time"),
            "09:00");
  // Without a purpose no rule applies.
  EXPECT_EQ(pub("PATCH", "/api/v2/voice-campaigns/" + c,
                R"({"calling_purpose":"NONE","daily_start_time":"21:30","daily_end_time":"23:00"})")
                .status,
            200u);
}

// A tenant's own cap (an operator's setting) counts a number's calls on all
// of its campaigns, whatever their purpose: at most 2 in 48 hours here.
TEST_F(dialer_test, a_tenants_own_cap_counts_a_numbers_calls_across_its_campaigns) {
  for (const char* bad :
       {R"({"contact_cap":{"calls":0,"window_hours":24}})", R"({"contact_cap":{"calls":2}})",
        R"({"contact_cap":"2/day"})", R"({"contact_cap":{"calls":2,"window_hours":721}})"}) {
    auto r = op("PATCH", "/admin/v1/tenants/" + tenant, bad);
    EXPECT_EQ(r.status, 400u) << bad << ": " << r.body;
  }
  auto missing = op("PATCH", "/admin/v1/tenants/" + tenant, R"({"contact_cap":{"calls":2}})");
  EXPECT_TRUE(parse(missing.body)["errors"].HasMember("contact_cap.window_hours")) << missing.body;
  auto set = op("PATCH", "/admin/v1/tenants/" + tenant,
                R"({"contact_cap":{"calls":2,"window_hours":48}})");
  ASSERT_EQ(set.status, 200u) << set.body;
  EXPECT_EQ(parse(set.body)["contact_cap"]["calls"].GetInt(), 2) << set.body;
  EXPECT_EQ(
      parse(op("GET", "/admin/v1/tenants/" + tenant).body)["contact_cap"]["window_hours"].GetInt(),
      48);
  std::vector<std::string> campaigns;
  for (int i = 0; i < 3; ++i) {
    auto c = campaign(provider(10), R"(,"start_date":"2030-01-01")");
    auto r =
        pub("POST", "/api/v2/voice-campaigns/" + c + "/leads",
            R"({"phone_number":"+14155550140","custom_fields":{"simulated_outcomes":"human"}})");
    ASSERT_EQ(r.status, 201u) << r.body;
    set_status(c, "ACTIVE");
    campaigns.push_back(c);
  }
  const auto called = [&] {
    std::size_t n = 0;
    for (const auto& c : campaigns)
      n += lead_status(c, "+14155550140") != "IDLE";
    return n;
  };
  // The tenant's purpose is NONE: no calling rule applies, its cap does.
  run(at("2030-01-02T18:00:00Z"));
  EXPECT_EQ(called(), 2u);
  run(at("2030-01-04T17:59:00Z"));
  EXPECT_EQ(called(), 2u) << "the first call is not yet 48 hours old";
  run(at("2030-01-04T18:00:00Z"));
  EXPECT_EQ(called(), 3u);
  // Without a cap, nothing of the tenant's holds a number.
  auto cleared = op("PATCH", "/admin/v1/tenants/" + tenant, R"({"contact_cap":null})");
  ASSERT_EQ(cleared.status, 200u) << cleared.body;
  EXPECT_TRUE(parse(cleared.body)["contact_cap"].IsNull()) << cleared.body;
}

// The lead list names the tenant's cap as the rule that holds a lead: no
// jurisdiction, no source, and the cap itself. On the node's clock: one
// campaign calls the number, another holding it waits a day.
TEST_F(dialer_test, a_lead_held_by_the_tenants_cap_names_it_in_the_list) {
  ASSERT_EQ(
      op("PATCH", "/admin/v1/tenants/" + tenant, R"({"contact_cap":{"calls":1,"window_hours":24}})")
          .status,
      200u);
  auto first = campaign(provider(5));
  add_lead(first, "+14155550141", "human");
  set_status(first, "ACTIVE");
  ASSERT_TRUE(eventually([&] { return lead_status(first, "+14155550141") == "COMPLETED"; }));
  auto second = campaign(provider(5));
  add_lead(second, "+14155550141", "human");
  set_status(second, "ACTIVE");
  auto r = pub("GET", "/api/v2/voice-campaigns/" + second + "/leads/list?include=dial_state");
  ASSERT_EQ(r.status, 200u) << r.body;
  const auto listed = parse(r.body);
  const auto& lead = listed["leads"][0];
  EXPECT_EQ(str(lead, "dial_state"), "contact_cap_reached") << r.body;
  ASSERT_TRUE(lead["dial_rule"].IsObject()) << r.body;
  EXPECT_EQ(str(lead["dial_rule"], "id"), "tenant-contact-cap");
  EXPECT_TRUE(lead["dial_rule"]["jurisdiction"].IsNull());
  EXPECT_TRUE(lead["dial_rule"]["source"].IsNull());
  EXPECT_EQ(lead["dial_rule"]["cap"]["calls"].GetInt(), 1);
  EXPECT_EQ(lead["dial_rule"]["cap"]["window_hours"].GetInt(), 24);
  ASSERT_TRUE(lead["next_dial_at"].IsString()) << r.body;
  EXPECT_GT(*domain::parse_iso8601(str(lead, "next_dial_at")), domain::now() + 23h);
  // The dialer keeps passing over it.
  std::this_thread::sleep_for(1s);
  EXPECT_EQ(lead_status(second, "+14155550141"), "IDLE");
}

// A lead a rule holds says which rule, with its source, and when every rule
// allows the call. The list reads the server's clock, so the test reads
// the local hour of US places on its own: a lead where it is outside
// 08:00-21:00 is held by the federal rule until 08:00 there, and one where
// it is inside is not held.
TEST_F(dialer_test, a_lead_held_by_a_calling_rule_names_it_and_its_source) {
  ASSERT_EQ(
      op("PATCH", "/admin/v1/tenants/" + tenant, R"({"calling_purpose":"TELEMARKETING"})").status,
      200u);
  struct place {
    const char* phone;
    const char* state; // the lead's field; "" for a territory, placed by its number
    const char* zone;
  };
  const std::array<place, 5> places{{{"+12125550111", "NY", "America/New_York"},
                                     {"+14155550112", "CA", "America/Los_Angeles"},
                                     {"+18085550113", "HI", "Pacific/Honolulu"},
                                     {"+16715550114", "", "Pacific/Guam"},
                                     {"+16845550115", "", "Pacific/Pago_Pago"}}};
  const auto now = std::chrono::system_clock::now();
  const auto minute_in = [&](const char* zone) {
    const auto local = date::make_zoned(zone, now).get_local_time();
    return std::chrono::duration_cast<std::chrono::minutes>(local - date::floor<date::days>(local));
  };
  const place* held = nullptr;
  const place* open = nullptr;
  for (const auto& p : places) {
    const auto m = minute_in(p.zone);
    if (std::chrono::abs(m - 8h) < 3min || std::chrono::abs(m - 21h) < 3min)
      continue; // too close to an edge to tell
    if (held == nullptr && !(m >= 8h && m < 21h))
      held = &p;
    if (open == nullptr && m >= 8h && m < 21h)
      open = &p;
  }
  if (held == nullptr)
    GTEST_SKIP() << "every US place is in its calling hours now (22:00-01:00 UTC)";
  auto c = campaign(provider(5));
  for (const auto* p : {held, open}) {
    if (p == nullptr)
      continue;
    const std::string state = *p->state ? R"(,"state":")" + std::string{p->state} + "\"" : "";
    auto added = pub("POST", "/api/v2/voice-campaigns/" + c + "/leads",
                     R"({"phone_number":")" + std::string{p->phone} +
                         R"(","custom_fields":{"simulated_outcomes":"busy")" + state + "}}");
    ASSERT_EQ(added.status, 201u) << added.body;
  }
  set_status(c, "ACTIVE");
  auto r = pub("GET", "/api/v2/voice-campaigns/" + c + "/leads/list?include=dial_state");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto d = parse(r.body);
  for (const auto& lead : d["leads"].GetArray()) {
    if (open != nullptr && str(lead, "phone_number") == open->phone) {
      EXPECT_NE(str(lead, "dial_state"), "outside_legal_hours") << r.body;
      EXPECT_TRUE(lead["dial_rule"].IsNull()) << r.body;
      continue;
    }
    EXPECT_EQ(str(lead, "dial_state"), "outside_legal_hours") << held->zone << ": " << r.body;
    ASSERT_TRUE(lead["dial_rule"].IsObject()) << r.body;
    EXPECT_EQ(str(lead["dial_rule"], "id"), "us-federal-tcpa-hours");
    EXPECT_EQ(str(lead["dial_rule"], "jurisdiction"), "US");
    EXPECT_EQ(str(lead["dial_rule"], "kind"), "hours");
    EXPECT_NE(str(lead["dial_rule"]["source"], "url").find("ecfr.gov"), std::string::npos);
    // Next: 08:00 there, today or tomorrow.
    const auto local = date::make_zoned(held->zone, now).get_local_time();
    auto day = date::floor<date::days>(local);
    if (minute_in(held->zone) >= 21h)
      day += date::days{1};
    const auto opens = date::make_zoned(held->zone, day + 8h).get_sys_time();
    ASSERT_TRUE(lead["next_dial_at"].IsString()) << r.body;
    EXPECT_EQ(domain::parse_iso8601(str(lead, "next_dial_at")),
              std::chrono::time_point_cast<std::chrono::microseconds>(opens));
  }
  EXPECT_EQ(d["leads"].Size(), open != nullptr ? 2u : 1u);
}

TEST_F(dialer_test, each_lead_says_why_it_is_not_called_and_when_it_may_be) {
  using state = std::pair<std::string, std::optional<domain::timestamp>>;
  auto states = [&](const std::string& c) {
    auto r = pub("GET", "/api/v2/voice-campaigns/" + c + "/leads/list?include=dial_state");
    EXPECT_EQ(r.status, 200u) << r.body;
    std::map<std::string, state> out;
    auto d = parse(r.body);
    for (const auto& l : d["leads"].GetArray())
      out[str(l, "phone_number")] = {str(l, "dial_state"),
                                     l["next_dial_at"].IsNull()
                                         ? std::nullopt
                                         : domain::parse_iso8601(str(l, "next_dial_at"))};
    return out;
  };
  auto next_attempt = [&](const std::string& c, const std::string& phone) {
    return domain::parse_iso8601(str(leads(c)[phone], "next_attempt_after"));
  };
  const auto midnight = [] {
    return domain::timestamp{date::floor<date::days>(domain::now()) + date::days{1}};
  };
  ASSERT_EQ(pub("POST", "/api/v2/do-not-call", R"({"phone_number":"+14155550003"})").status, 201u);
  auto c = campaign(provider(5), R"(,"max_daily_attempts":1)");
  add_lead(c, "+14155550001", "busy");
  add_lead(c, "+14155550002", "human");
  add_lead(c, "+14155550003", "human");
  auto draft = states(c);
  EXPECT_EQ(draft["+14155550001"], state("campaign_not_active", std::nullopt));
  EXPECT_EQ(draft["+14155550003"], state("do_not_call", std::nullopt));

  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] {
    auto all = leads(c);
    return all["+14155550001"]["attempts_made"].GetInt() == 1 &&
           str(all["+14155550001"], "call_status") == "IDLE" &&
           str(all["+14155550002"], "call_status") == "COMPLETED";
  }));
  auto dialed = states(c);
  // One attempt a day: tomorrow, or when its gap ends if that is later.
  auto gap_end = next_attempt(c, "+14155550001");
  ASSERT_TRUE(gap_end);
  EXPECT_EQ(dialed["+14155550001"].first, "daily_cap_reached");
  EXPECT_EQ(dialed["+14155550001"].second, std::max(midnight(), *gap_end));
  EXPECT_EQ(dialed["+14155550002"], state("answered", std::nullopt));
  EXPECT_EQ(dialed["+14155550003"], state("do_not_call", std::nullopt));
  EXPECT_EQ(call_count(c), 2u) << "the listed number was never called";
  set_status(c, "PAUSED");
  EXPECT_EQ(states(c)["+14155550001"], state("campaign_not_active", std::nullopt));

  // Between attempts: due when its gap ends.
  auto g = campaign(provider(5));
  add_lead(g, "+14155550004", "busy");
  set_status(g, "ACTIVE");
  ASSERT_TRUE(eventually([&] {
    auto all = leads(g);
    const auto& l = all["+14155550004"];
    return l["attempts_made"].GetInt() == 1 && str(l, "call_status") == "IDLE";
  }));
  EXPECT_EQ(states(g)["+14155550004"], state("waiting_gap", next_attempt(g, "+14155550004")));

  // Every day but today (UTC, the campaign's zone): from midnight.
  static const std::array<const char*, 7> names{"SUNDAY",   "MONDAY", "TUESDAY", "WEDNESDAY",
                                                "THURSDAY", "FRIDAY", "SATURDAY"};
  const auto today = date::weekday{date::floor<date::days>(domain::now())}.c_encoding();
  std::string days;
  for (unsigned d = 0; d < 7; ++d)
    if (d != today)
      days += std::string{days.empty() ? "" : ","} + "\"" + names[d] + "\"";
  auto w = campaign(provider(5), R"(,"days_of_week":[)" + days + "]");
  add_lead(w, "+14155550005", "human");
  set_status(w, "ACTIVE");
  EXPECT_EQ(states(w)["+14155550005"], state("outside_window", midnight()));

  // The one-lead read says it too; a list without include does not.
  auto one = pub("GET", "/api/v2/voice-campaigns/" + c +
                            "/leads/list?phone_number=%2B14155550002&include=dial_state");
  ASSERT_EQ(one.status, 200u) << one.body;
  EXPECT_EQ(str(parse(one.body)["leads"][0], "dial_state"), "answered");
  auto plain = parse(pub("GET", "/api/v2/voice-campaigns/" + c + "/leads/list").body);
  EXPECT_FALSE(plain["leads"][0].HasMember("dial_state"));
  auto bad = pub("GET", "/api/v2/voice-campaigns/" + c + "/leads/list?include=everything");
  EXPECT_EQ(bad.status, 400u) << bad.body;
  EXPECT_TRUE(parse(bad.body)["errors"].HasMember("include"));
}

// The forecast's counts are the leads' own dial states summed, on a DRAFT
// before any call and after a round of calls; once ten calls have ended
// its estimate uses their answer rate and length.
TEST_F(dialer_test, the_forecast_sums_the_dial_states_and_estimates_the_finish) {
  auto forecast = [&](const std::string& c) {
    auto r = pub("GET", "/api/v2/voice-campaigns/" + c + "/forecast");
    EXPECT_EQ(r.status, 200u) << r.body;
    return parse(r.body);
  };
  // Nonzero counts by state name, "eligible" included.
  auto counts = [](const rapidjson::Value& f) {
    std::map<std::string, int64_t> out;
    for (const auto& m : f["skipped"].GetObject())
      if (m.value.GetInt64() > 0)
        out[m.name.GetString()] = m.value.GetInt64();
    if (f["eligible_now"].GetInt64() > 0)
      out["eligible"] = f["eligible_now"].GetInt64();
    return out;
  };
  auto summed = [&](const std::string& c) {
    auto r =
        pub("GET", "/api/v2/voice-campaigns/" + c + "/leads/list?limit=200&include=dial_state");
    EXPECT_EQ(r.status, 200u) << r.body;
    auto d = parse(r.body);
    std::map<std::string, int64_t> out;
    for (const auto& l : d["leads"].GetArray())
      ++out[str(l, "dial_state")];
    return out;
  };
  ASSERT_EQ(pub("POST", "/api/v2/do-not-call", R"({"phone_number":"+14155550100"})").status, 201u);
  auto c = campaign(provider(5), R"(,"max_daily_attempts":1)");
  add_lead(c, "+14155550100", "human");
  for (int i = 1; i <= 12; ++i)
    add_lead(c, "+141555501" + std::string{i < 10 ? "0" : ""} + std::to_string(i),
             i % 2 ? "human" : "busy");

  const auto before = domain::now();
  auto draft_doc = forecast(c);
  const auto& draft = draft_doc["data"];
  EXPECT_EQ(str(draft, "campaign_id"), c);
  EXPECT_EQ(str(draft, "campaign_status"), "DRAFT");
  EXPECT_EQ(draft["total_leads"].GetInt64(), 13);
  EXPECT_EQ(draft["open_leads"].GetInt64(), 12);
  EXPECT_EQ(draft["skipped"].MemberCount(), 16u) << "every state but eligible";
  EXPECT_EQ(counts(draft), summed(c));
  EXPECT_EQ(draft["skipped"]["campaign_not_active"].GetInt64(), 12);
  EXPECT_EQ(draft["concurrency"].GetInt(), 5);
  EXPECT_FALSE(draft["call_seconds_measured"].GetBool());
  EXPECT_EQ(draft["average_call_seconds"].GetDouble(), 60.0);
  EXPECT_EQ(draft["answer_rate"].GetDouble(), 0.3);
  EXPECT_EQ(draft["expected_calls"].GetInt64(), 27) << "12 * (1 + 0.7 + 0.49) = 26.28";
  EXPECT_EQ(str(draft, "outlook"), "finishing") << "forecast as if started now";
  auto finish = domain::parse_iso8601(str(draft, "estimated_finish_at"));
  ASSERT_TRUE(finish);
  EXPECT_GT(*finish, before);

  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] {
    auto f = forecast(c);
    return f["data"]["call_seconds_measured"].GetBool() &&
           f["data"]["skipped"]["answered"].GetInt64() == 6 &&
           f["data"]["skipped"]["daily_cap_reached"].GetInt64() == 6;
  }));
  auto dialed_doc = forecast(c);
  const auto& dialed = dialed_doc["data"];
  const std::map<std::string, int64_t> want{
      {"answered", 6}, {"daily_cap_reached", 6}, {"do_not_call", 1}};
  EXPECT_EQ(counts(dialed), want);
  EXPECT_EQ(summed(c), want);
  EXPECT_EQ(dialed["answer_rate"].GetDouble(), 0.5);
  EXPECT_TRUE(dialed["answer_rate_measured"].GetBool());
  // Six open leads, one attempt made of three: 6 * (1 + 0.5).
  EXPECT_EQ(dialed["expected_calls"].GetInt64(), 9);
  // Lines allow 5 calls per call length; six leads one call per gap each.
  const double length = dialed["average_call_seconds"].GetDouble();
  EXPECT_GE(length, 1.0);
  const double per_hour = std::min(5 * 3600.0 / length, 6 * 3600.0 / (3600 + length));
  EXPECT_NEAR(dialed["calls_per_hour"].GetDouble(), per_hour, 0.05);
  // None today (each lead's one call a day is made), six tomorrow (UTC, the
  // campaign's zone), the last three the day after.
  auto done = domain::parse_iso8601(str(dialed, "estimated_finish_at"));
  ASSERT_TRUE(done);
  const domain::timestamp day_after{date::floor<date::days>(domain::now()) + date::days{2}};
  EXPECT_GE(*done, day_after + 30min);
  EXPECT_LE(*done, day_after + 31min);

  auto missing = pub("GET", "/api/v2/voice-campaigns/" +
                                domain::encode_global_id(domain::entity::campaign, 1'000'000'000) +
                                "/forecast");
  EXPECT_EQ(missing.status, 404u) << missing.body;
}

// A POOL campaign calls from its pool: calls spread over the numbers, a
// lead's next attempt comes from another number than its last, and once
// every number has reached its daily cap the rest wait for the pool's next
// day, as their dial state says.
TEST_F(dialer_test, a_pool_campaign_rotates_its_numbers_under_their_daily_caps) {
  auto made = pub("POST", "/api/v2/phone-number-pools",
                  R"({"name":"East","phone_number_ids":["pn_a","pn_b"],"daily_cap_per_number":2})");
  ASSERT_EQ(made.status, 201u) << made.body;
  const auto pool = str(parse(made.body)["data"], "id");
  const auto pooled = R"(,"dialer_type":"POOL","phone_number_pool_id":")" + pool + "\"";
  // The number each call of the campaign was placed from, by lead and attempt.
  auto numbers = [&](const std::string& c) {
    std::map<std::pair<std::string, int>, std::string> out;
    auto d = calls(c);
    for (const auto& call : d["calls"].GetArray())
      out[{str(call, "phone_number"), call["attempt"].GetInt()}] = str(call, "phone_number_id");
    return out;
  };

  // Two leads that do not answer: each one's second attempt comes from the
  // other number (L1, dialed first, would otherwise take pn_a again).
  auto c = campaign(provider(5), pooled + R"(,"max_call_attempts":2,"min_gap_between_attempts":3)");
  add_lead(c, "+14155550011", "busy");
  add_lead(c, "+14155550012", "busy");
  set_status(c, "ACTIVE");
  ASSERT_TRUE(eventually([&] {
    return call_count(c) == 2 && lead_status(c, "+14155550011") == "IDLE" &&
           lead_status(c, "+14155550012") == "IDLE";
  }));
  set_priority(c, "+14155550011", 5);
  run(domain::now() + 4min);
  ASSERT_TRUE(eventually([&] { return call_count(c) == 4; }));
  auto used = numbers(c);
  for (const std::string phone : {"+14155550011", "+14155550012"}) {
    const auto first = used[std::pair{phone, 1}];
    const auto second = used[std::pair{phone, 2}];
    EXPECT_NE(first, second) << phone;
    EXPECT_TRUE(first == "pn_a" || first == "pn_b") << first;
  }
  // Each call's events (started and ended, four calls) name the number it
  // came from, as its record does.
  std::vector<std::tuple<std::string, std::string, int, std::string>> events;
  ASSERT_TRUE(eventually([&] {
    events.clear();
    auto feed = parse(pub("GET", "/api/v2/events?limit=1000").body);
    for (const auto& e : feed["data"].GetArray()) {
      const auto& data = e["payload"]["data"];
      if (str(e, "campaign_id") == c && str(e, "type").starts_with("call."))
        events.emplace_back(str(e, "type"), str(data, "phone_number"), data["attempt"].GetInt(),
                            str(data, "phone_number_id"));
    }
    return events.size() == 8;
  }));
  for (const auto& [type, phone, attempt, from] : events)
    EXPECT_EQ(from, (used[std::pair<std::string, int>{phone, attempt}]))
        << type << " " << phone << " " << attempt;
  auto read = parse(pub("GET", "/api/v2/phone-number-pools/" + pool).body);
  EXPECT_EQ(read["data"]["numbers"][0]["calls_today"].GetInt(), 2);
  EXPECT_EQ(read["data"]["numbers"][1]["calls_today"].GetInt(), 2);
  EXPECT_EQ(read["data"]["calls_left_today"].GetInt(), 0);

  // The pool is spent for today: a second campaign on it waits for the
  // pool's next day (UTC midnight), and is called then.
  auto w = campaign(provider(5), pooled);
  add_lead(w, "+14155550013", "human");
  set_status(w, "ACTIVE");
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(call_count(w), 0u);
  auto r = pub("GET", "/api/v2/voice-campaigns/" + w + "/leads/list?include=dial_state");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto d = parse(r.body);
  const auto midnight = domain::timestamp{date::floor<date::days>(domain::now()) + date::days{1}};
  EXPECT_EQ(str(d["leads"][0], "dial_state"), "numbers_at_daily_cap");
  EXPECT_EQ(domain::parse_iso8601(str(d["leads"][0], "next_dial_at")), midnight);
  auto f = parse(pub("GET", "/api/v2/voice-campaigns/" + w + "/forecast").body);
  EXPECT_EQ(f["data"]["skipped"]["numbers_at_daily_cap"].GetInt(), 1);
  run(midnight + 1min);
  ASSERT_TRUE(eventually([&] { return call_count(w) == 1; }));
  const auto from = numbers(w)[std::pair<std::string, int>{"+14155550013", 1}];
  EXPECT_EQ(from, "pn_a");

  // A POOL campaign whose pool has gone is told so.
  auto empty = campaign(provider(5), R"(,"dialer_type":"POOL")");
  add_lead(empty, "+14155550014", "human");
  auto e =
      parse(pub("GET", "/api/v2/voice-campaigns/" + empty + "/leads/list?include=dial_state").body);
  EXPECT_EQ(str(e["leads"][0], "dial_state"), "campaign_not_active");
  set_status(empty, "ACTIVE");
  e = parse(pub("GET", "/api/v2/voice-campaigns/" + empty + "/leads/list?include=dial_state").body);
  EXPECT_EQ(str(e["leads"][0], "dial_state"), "no_phone_number");
  EXPECT_EQ(call_count(empty), 0u);
}

} // namespace
} // namespace vcs::test
