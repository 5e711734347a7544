// Campaigns: create, read, partial update, status, limits and isolation.

#include "eventually.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

#include <atomic>
#include <thread>
#include <vector>

namespace vcs::test {
namespace {

const std::string full_body_template = R"({
  "name": "Spring outreach",
  "type": "OUTBOUND",
  "assistant_id": "asst_123",
  "tenant_voice_provider_id": "%VP%",
  "dialer_type": "POOL",
  "provider_a_calling_entity": "ASSISTANT",
  "phone_number_id": "pn_1",
  "phone_number_pool_id": "%POOL%",
  "start_date": "2026-03-01",
  "end_date": "2026-06-30",
  "timezone": "America/New_York",
  "days_of_week": ["MONDAY", "WEDNESDAY", "FRIDAY"],
  "daily_start_time": "09:00",
  "daily_end_time": "17:30",
  "max_call_attempts": 5,
  "max_daily_attempts": 2,
  "min_gap_between_attempts": 60,
  "consider_voicemail_as_answered": true,
  "webhook_url": "https://hooks.example.com/calls?src=vcs"
})";

class campaign_test : public service_test {
protected:
  std::string create_provider(const std::string& key) {
    auto r = pub("POST", "/api/v2/voice-pod", key,
                 R"({"voice_provider":"provider_b","provider_b_api_key":"k"})");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "voice_provider_id");
  }

  std::string create_campaign(const std::string& key, const std::string& name = "c") {
    auto r = pub("POST", "/api/v2/voice-campaigns", key, R"({"name":")" + name + "\"}");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "campaign_id");
  }

  // The full body on provider `vp` with a new pool of the key's tenant.
  std::string with_provider(const std::string& key, const std::string& vp) {
    auto body = full_body_template;
    body.replace(body.find("%VP%"), 4, vp);
    auto r = pub("POST", "/api/v2/phone-number-pools", key,
                 R"({"name":"p","phone_number_ids":["pn_1"]})");
    EXPECT_EQ(r.status, 201u) << r.body;
    pool = str(parse(r.body)["data"], "id");
    body.replace(body.find("%POOL%"), 6, pool);
    return body;
  }

  std::string pool;

  http_response set_status(const std::string& key, const std::string& id, const std::string& s) {
    return pub("PATCH", "/api/v2/voice-campaigns/" + id + "/status", key,
               R"({"status":")" + s + "\"}");
  }
};

TEST_F(campaign_test, minimal_create_is_a_draft_outbound_campaign) {
  auto t = create_tenant();
  auto r = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"Minimal"})");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "status"), "success");
  EXPECT_FALSE(str(d, "message").empty());
  EXPECT_FALSE(str(d["data"], "campaign_id").empty());
  EXPECT_EQ(str(d["data"], "campaign_name"), "Minimal");
  EXPECT_EQ(str(d["data"], "campaign_type"), "OUTBOUND");
  EXPECT_EQ(str(d["data"], "campaign_status"), "DRAFT");
}

TEST_F(campaign_test, full_create_stores_every_field) {
  auto t = create_tenant();
  auto vp = create_provider(t.key);
  auto r = pub("POST", "/api/v2/voice-campaigns", t.key, with_provider(t.key, vp));
  ASSERT_EQ(r.status, 201u) << r.body;
  auto id = str(parse(r.body)["data"], "campaign_id");
  auto g = pub("GET", "/api/v2/voice-campaigns/" + id, t.key);
  ASSERT_EQ(g.status, 200u) << g.body;
  auto doc = parse(g.body);
  const auto& c = doc["data"];
  EXPECT_EQ(str(c, "id"), id);
  EXPECT_EQ(str(c, "tenant_voice_provider_id"), vp);
  EXPECT_EQ(str(c, "dialer_type"), "POOL");
  EXPECT_EQ(str(c, "provider_a_calling_entity"), "ASSISTANT");
  EXPECT_EQ(str(c, "phone_number_pool_id"), pool);
  EXPECT_EQ(str(c, "start_date"), "2026-03-01");
  EXPECT_EQ(str(c, "end_date"), "2026-06-30");
  EXPECT_EQ(str(c, "timezone"), "America/New_York");
  ASSERT_EQ(c["days_of_week"].Size(), 3u);
  EXPECT_STREQ(c["days_of_week"][2].GetString(), "FRIDAY");
  EXPECT_EQ(str(c, "daily_start_time"), "09:00");
  EXPECT_EQ(str(c, "daily_end_time"), "17:30");
  EXPECT_EQ(c["max_call_attempts"].GetInt(), 5);
  EXPECT_EQ(c["max_daily_attempts"].GetInt(), 2);
  EXPECT_EQ(c["min_gap_between_attempts"].GetInt(), 60);
  EXPECT_TRUE(c["consider_voicemail_as_answered"].GetBool());
  EXPECT_EQ(str(c, "webhook_url"), "https://hooks.example.com/calls?src=vcs");
  EXPECT_EQ(str(c, "status"), "DRAFT");
  EXPECT_EQ(c["lead_count"].GetInt64(), 0);
  // The integer form of the id reaches the same campaign.
  auto raw = pub("GET", "/api/v2/voice-campaigns/" + id, t.key);
  EXPECT_EQ(raw.status, 200u);
}

TEST_F(campaign_test, create_validation_names_every_bad_field) {
  auto t = create_tenant();
  auto r = pub("POST", "/api/v2/voice-campaigns", t.key, R"({
    "type": "SIDEWAYS", "dialer_type": "BOTH", "provider_a_calling_entity": "ROBOT",
    "start_date": "2026-02-30", "end_date": "2026-13-01", "timezone": "Mars/Base",
    "days_of_week": ["monday", "FRIDAY", "FRIDAY"], "daily_start_time": "25:00",
    "daily_end_time": "9am", "max_call_attempts": 0, "max_daily_attempts": 99,
    "min_gap_between_attempts": 2, "consider_voicemail_as_answered": "yes",
    "webhook_url": "ftp://example.com/hook", "assistant_id": 42})");
  ASSERT_EQ(r.status, 400u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "message"), "Invalid data");
  ASSERT_TRUE(d["errors"].IsObject());
  for (const char* field :
       {"name", "type", "dialer_type", "provider_a_calling_entity", "start_date", "end_date",
        "timezone", "days_of_week", "daily_start_time", "daily_end_time", "max_call_attempts",
        "max_daily_attempts", "min_gap_between_attempts", "consider_voicemail_as_answered",
        "webhook_url", "assistant_id"})
    EXPECT_TRUE(d["errors"].HasMember(field)) << field << ": " << r.body;
}

TEST_F(campaign_test, end_date_before_start_date_is_rejected) {
  auto t = create_tenant();
  auto r = pub("POST", "/api/v2/voice-campaigns", t.key,
               R"({"name":"x","start_date":"2026-05-02","end_date":"2026-05-01"})");
  ASSERT_EQ(r.status, 400u);
  EXPECT_TRUE(parse(r.body)["errors"].HasMember("end_date"));
  auto same_day = pub("POST", "/api/v2/voice-campaigns", t.key,
                      R"({"name":"x","start_date":"2026-05-02","end_date":"2026-05-02"})");
  EXPECT_EQ(same_day.status, 201u) << same_day.body;
}

TEST_F(campaign_test, unknown_or_foreign_voice_provider_is_not_found) {
  auto t = create_tenant();
  auto other = create_tenant();
  auto foreign = create_provider(other.key);
  for (const std::string& vp :
       {foreign, std::string{"VGVuYW50Vm9pY2VQcm92aWRlcjo5OTk5OTk5"}, std::string{"garbage"}}) {
    auto r = pub("POST", "/api/v2/voice-campaigns", t.key,
                 R"({"name":"x","tenant_voice_provider_id":")" + vp + "\"}");
    ASSERT_EQ(r.status, 404u) << vp << " " << r.body;
    auto d = parse(r.body);
    EXPECT_EQ(str(d, "message"), "Tenant voice provider not found");
    ASSERT_TRUE(d["errors"].IsArray());
    EXPECT_NE(std::string{d["errors"][0].GetString()}.find(vp), std::string::npos);
  }
}

TEST_F(campaign_test, plan_limit_gives_the_plan_limit_error) {
  auto t = create_tenant();
  ASSERT_EQ(op("PATCH", "/admin/v1/tenants/" + t.id, R"({"campaign_limit":2})").status, 200u);
  create_campaign(t.key);
  create_campaign(t.key);
  auto r = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"third"})");
  ASSERT_EQ(r.status, 403u) << r.body;
  auto d = parse(r.body);
  EXPECT_NE(str(d, "message").find("upgrade"), std::string::npos);
  ASSERT_TRUE(d["errors"].IsArray());
  EXPECT_STREQ(d["errors"][0].GetString(), "Campaign limit reached");
  // An ENDED campaign frees its slot.
  auto first = create_tenant();
  ASSERT_EQ(op("PATCH", "/admin/v1/tenants/" + first.id, R"({"campaign_limit":1})").status, 200u);
  auto only = create_campaign(first.key);
  ASSERT_EQ(set_status(first.key, only, "ENDED").status, 200u);
  EXPECT_EQ(pub("POST", "/api/v2/voice-campaigns", first.key, R"({"name":"next"})").status, 201u);
}

TEST_F(campaign_test, concurrent_creates_never_exceed_the_limit) {
  auto t = create_tenant();
  ASSERT_EQ(op("PATCH", "/admin/v1/tenants/" + t.id, R"({"campaign_limit":10})").status, 200u);
  // Two nodes on one database: the tenant row lock, not the actor alone,
  // keeps the limit.
  service_process second_node;
  std::atomic<int> created{0}, limited{0}, other{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 50; ++i)
    clients.emplace_back([&, i] {
      auto port = i % 2 == 0 ? svc.public_port() : second_node.public_port();
      http_client c{"127.0.0.1", port};
      auto r = c.request("POST", "/api/v2/voice-campaigns",
                         R"({"name":"p)" + std::to_string(i) + "\"}", bearer(t.key));
      (r.status == 201 ? created : r.status == 403 ? limited : other)++;
    });
  for (auto& c : clients)
    c.join();
  EXPECT_EQ(created.load(), 10);
  EXPECT_EQ(limited.load(), 40);
  EXPECT_EQ(other.load(), 0);
  auto sql = storage::open_session(database_url());
  long long stored = 0;
  long long tenant = tenant_db_id(t);
  *sql << "SELECT count(*) FROM campaigns WHERE tenant_id = :t", soci::use(tenant),
      soci::into(stored);
  EXPECT_EQ(stored, 10);
}

TEST_F(campaign_test, update_changes_only_given_fields) {
  auto t = create_tenant();
  auto vp = create_provider(t.key);
  auto id = str(
      parse(pub("POST", "/api/v2/voice-campaigns", t.key, with_provider(t.key, vp)).body)["data"],
      "campaign_id");
  auto r = pub("PATCH", "/api/v2/voice-campaigns/" + id, t.key,
               R"({"name":"Renamed","max_call_attempts":7,"days_of_week":["SATURDAY"]})");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "status"), "success");
  EXPECT_EQ(str(d["data"], "campaign_name"), "Renamed");
  EXPECT_EQ(str(d["data"], "campaign_id"), id);
  auto c = parse(pub("GET", "/api/v2/voice-campaigns/" + id, t.key).body);
  const auto& data = c["data"];
  EXPECT_EQ(data["max_call_attempts"].GetInt(), 7);
  EXPECT_EQ(data["max_daily_attempts"].GetInt(), 2);
  ASSERT_EQ(data["days_of_week"].Size(), 1u);
  EXPECT_EQ(str(data, "timezone"), "America/New_York");
  EXPECT_EQ(str(data, "webhook_url"), "https://hooks.example.com/calls?src=vcs");
  EXPECT_EQ(str(data, "tenant_voice_provider_id"), vp);
}

TEST_F(campaign_test, create_only_fields_are_immutable) {
  auto t = create_tenant();
  auto vp = create_provider(t.key);
  auto id = str(
      parse(pub("POST", "/api/v2/voice-campaigns", t.key, with_provider(t.key, vp)).body)["data"],
      "campaign_id");
  auto r = pub("PATCH", "/api/v2/voice-campaigns/" + id, t.key, R"({"type":"INBOUND"})");
  ASSERT_EQ(r.status, 400u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "message"), "Campaign type cannot be changed after creation");
  EXPECT_STREQ(d["errors"][0].GetString(), "type is immutable");
  for (const char* body : {R"({"start_date":"2026-03-02"})", R"({"end_date":"2026-07-01"})",
                           R"({"provider_a_calling_entity":"SQUAD"})"}) {
    auto x = pub("PATCH", "/api/v2/voice-campaigns/" + id, t.key, body);
    EXPECT_EQ(x.status, 400u) << body;
    EXPECT_NE(x.body.find("is immutable"), std::string::npos) << x.body;
  }
  // Sending the stored value is not a change.
  EXPECT_EQ(pub("PATCH", "/api/v2/voice-campaigns/" + id, t.key, R"({"type":"OUTBOUND"})").status,
            200u);
  auto c = parse(pub("GET", "/api/v2/voice-campaigns/" + id, t.key).body);
  EXPECT_EQ(str(c["data"], "type"), "OUTBOUND");
}

TEST_F(campaign_test, update_validates_against_stored_values) {
  auto t = create_tenant();
  auto vp = create_provider(t.key);
  auto id = str(
      parse(pub("POST", "/api/v2/voice-campaigns", t.key, with_provider(t.key, vp)).body)["data"],
      "campaign_id");
  auto attempts =
      pub("PATCH", "/api/v2/voice-campaigns/" + id, t.key, R"({"max_daily_attempts":9})");
  ASSERT_EQ(attempts.status, 400u) << attempts.body;
  EXPECT_TRUE(parse(attempts.body)["errors"].HasMember("max_daily_attempts"));
  auto window =
      pub("PATCH", "/api/v2/voice-campaigns/" + id, t.key, R"({"daily_end_time":"08:00"})");
  ASSERT_EQ(window.status, 400u) << window.body;
  EXPECT_TRUE(parse(window.body)["errors"].HasMember("daily_end_time"));
  auto bad = pub("PATCH", "/api/v2/voice-campaigns/" + id, t.key, R"({"timezone":"Nowhere/City"})");
  EXPECT_EQ(bad.status, 400u);
  auto foreign = pub("PATCH", "/api/v2/voice-campaigns/" + id, t.key,
                     R"({"tenant_voice_provider_id":"VGVuYW50Vm9pY2VQcm92aWRlcjo5OTk5OTk5"})");
  EXPECT_EQ(foreign.status, 404u);
  EXPECT_EQ(str(parse(foreign.body), "message"), "Tenant voice provider not found");
}

TEST_F(campaign_test, status_changes_and_invalid_values) {
  auto t = create_tenant();
  auto id = create_campaign(t.key);
  for (const char* s : {"SCHEDULED", "ACTIVE", "PAUSED", "ACTIVE", "DRAFT", "ENDED"}) {
    auto r = set_status(t.key, id, s);
    ASSERT_EQ(r.status, 200u) << s << " " << r.body;
    auto d = parse(r.body);
    EXPECT_TRUE(d["success"].GetBool());
    EXPECT_FALSE(str(d, "message").empty());
    EXPECT_EQ(str(parse(pub("GET", "/api/v2/voice-campaigns/" + id, t.key).body)["data"], "status"),
              s);
  }
  auto invalid = set_status(t.key, id, "RUNNING");
  ASSERT_EQ(invalid.status, 400u);
  auto d = parse(invalid.body);
  ASSERT_TRUE(d["valid_statuses"].IsArray());
  EXPECT_EQ(d["valid_statuses"].Size(), 5u);
  EXPECT_NE(str(d, "message").find("DRAFT, SCHEDULED, ACTIVE, PAUSED, ENDED"), std::string::npos);
  EXPECT_EQ(pub("PATCH", "/api/v2/voice-campaigns/" + id + "/status", t.key, "{}").status, 400u);
  EXPECT_EQ(
      pub("PATCH", "/api/v2/voice-campaigns/" + id + "/status", t.key, R"({"status":"active"})")
          .status,
      400u);
}

TEST_F(campaign_test, ended_campaign_cannot_be_reactivated) {
  auto t = create_tenant();
  auto id = create_campaign(t.key);
  ASSERT_EQ(set_status(t.key, id, "ENDED").status, 200u);
  auto r = set_status(t.key, id, "ACTIVE");
  ASSERT_EQ(r.status, 409u) << r.body;
  auto d = parse(r.body);
  EXPECT_FALSE(d["success"].GetBool());
  EXPECT_EQ(str(d, "message"), "Unable to update the campaign status");
  EXPECT_FALSE(str(d, "error").empty());
  EXPECT_EQ(set_status(t.key, id, "ENDED").status, 200u);
}

TEST_F(campaign_test, campaign_of_a_past_due_client_cannot_become_active) {
  auto t = create_tenant();
  auto id = create_campaign(t.key);
  // Billing state arranged directly in the database (clients and billing
  // endpoints arrive with their own issues).
  auto sql = storage::open_session(database_url());
  long long tenant = tenant_db_id(t);
  long long client = 0, config = 0, product = 0;
  *sql << "INSERT INTO clients (tenant_id, name, primary_email) VALUES (:t, 'C', 'c@x.io') "
          "RETURNING id",
      soci::use(tenant), soci::into(client);
  *sql << "INSERT INTO account_configurations (tenant_id, client_id, name) VALUES (:t, :c, 'g') "
          "RETURNING id",
      soci::use(tenant), soci::use(client), soci::into(config);
  *sql << "INSERT INTO assigned_resources (tenant_id, account_configuration_id, resource_kind, "
          "resource_id, position) VALUES (:t, :a, 'campaign', :r, 0)",
      soci::use(tenant), soci::use(config), soci::use(id);
  *sql << "INSERT INTO products (tenant_id, processor_product_id, name, pricing_model, currency, "
          "min_minutes_included, additional_minute_price) VALUES (:t, 'prod', 'P', 'flat', 'USD', "
          "0, 0) "
          "RETURNING id",
      soci::use(tenant), soci::into(product);
  *sql << "INSERT INTO subscriptions (tenant_id, client_id, product_id, status, "
          "current_period_start, "
          "current_period_end, billing_cycle_anchor) VALUES (:t, :c, :p, 'past_due', now(), "
          "now() + interval '30 days', now())",
      soci::use(tenant), soci::use(client), soci::use(product);

  auto r = set_status(t.key, id, "ACTIVE");
  ASSERT_EQ(r.status, 409u) << r.body;
  auto d = parse(r.body);
  EXPECT_FALSE(d["success"].GetBool());
  EXPECT_EQ(str(d, "message"), "Unable to update the campaign status");
  EXPECT_NE(str(d, "error").find("past_due"), std::string::npos);
  EXPECT_EQ(set_status(t.key, id, "PAUSED").status, 200u);
  *sql << "UPDATE subscriptions SET status = 'active' WHERE client_id = :c", soci::use(client);
  EXPECT_EQ(set_status(t.key, id, "ACTIVE").status, 200u);
}

TEST_F(campaign_test, other_tenants_campaigns_are_not_found) {
  auto owner = create_tenant();
  auto stranger = create_tenant();
  auto id = create_campaign(owner.key);
  for (auto [method, suffix, body] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"GET", "", ""},
           {"PATCH", "", R"({"name":"mine"})"},
           {"PATCH", "/status", R"({"status":"ACTIVE"})"}}) {
    auto r = pub(method, "/api/v2/voice-campaigns/" + id + suffix, stranger.key, body);
    EXPECT_EQ(r.status, 404u) << method << suffix;
    EXPECT_EQ(str(parse(r.body), "message"), "Campaign not found");
  }
  for (const char* bad : {"nope", "0", "VGVuYW50OjE="}) {
    auto r = pub("GET", std::string{"/api/v2/voice-campaigns/"} + bad, owner.key);
    EXPECT_EQ(r.status, 404u) << bad;
  }
  auto still = parse(pub("GET", "/api/v2/voice-campaigns/" + id, owner.key).body);
  EXPECT_EQ(str(still["data"], "name"), "c");
}

TEST_F(campaign_test, the_list_is_newest_first_paged_filtered_and_the_tenant_own) {
  auto t = create_tenant();
  auto other = create_tenant();
  auto first = create_campaign(t.key, "first");
  auto second = create_campaign(t.key, "second");
  auto third = create_campaign(t.key, "third");
  auto r = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"inbound","type":"INBOUND"})");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto inbound = str(parse(r.body)["data"], "campaign_id");
  ASSERT_EQ(set_status(t.key, second, "PAUSED").status, 200u);
  create_campaign(other.key, "elsewhere");

  auto names = [&](const std::string& query) {
    auto res = pub("GET", "/api/v2/voice-campaigns" + query, t.key);
    EXPECT_EQ(res.status, 200u) << query << res.body;
    auto d = parse(res.body);
    std::vector<std::string> out;
    for (auto& c : d["data"].GetArray())
      out.push_back(str(c, "name"));
    return std::make_pair(out, d["meta"]["total"].GetInt64());
  };
  auto all = names("");
  EXPECT_EQ(all.first, (std::vector<std::string>{"inbound", "third", "second", "first"}));
  EXPECT_EQ(all.second, 4);
  auto page2 = names("?page=2&page_size=3");
  EXPECT_EQ(page2.first, (std::vector<std::string>{"first"}));
  EXPECT_EQ(page2.second, 4);
  EXPECT_EQ(names("?status=PAUSED").first, (std::vector<std::string>{"second"}));
  EXPECT_EQ(names("?status=DRAFT&type=OUTBOUND").first,
            (std::vector<std::string>{"third", "first"}));
  EXPECT_EQ(names("?type=INBOUND").first, (std::vector<std::string>{"inbound"}));
  EXPECT_EQ(names("?status=ENDED").second, 0);

  auto d = parse(pub("GET", "/api/v2/voice-campaigns?page_size=1", t.key).body);
  EXPECT_EQ(d["meta"]["page"].GetInt64(), 1);
  EXPECT_EQ(d["meta"]["page_size"].GetInt64(), 1);
  auto& item = d["data"][0];
  EXPECT_EQ(str(item, "id"), inbound);
  EXPECT_EQ(str(item, "status"), "DRAFT");
  EXPECT_EQ(str(item, "type"), "INBOUND");
  EXPECT_FALSE(item.HasMember("lead_counts")) << "the list carries stored records only";

  auto theirs = parse(pub("GET", "/api/v2/voice-campaigns", other.key).body);
  ASSERT_EQ(theirs["data"].Size(), 1u);
  EXPECT_EQ(str(theirs["data"][0], "name"), "elsewhere");
}

TEST_F(campaign_test, the_list_refuses_unknown_filters_and_bad_pages) {
  auto t = create_tenant();
  auto r = pub("GET", "/api/v2/voice-campaigns?status=RUNNING", t.key);
  ASSERT_EQ(r.status, 400u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "message"),
            "Invalid status: 'RUNNING'. Valid values are: DRAFT, SCHEDULED, ACTIVE, PAUSED, ENDED");
  EXPECT_EQ(d["valid_values"].Size(), 5u);
  r = pub("GET", "/api/v2/voice-campaigns?type=outbound", t.key);
  ASSERT_EQ(r.status, 400u) << r.body;
  EXPECT_EQ(str(parse(r.body), "message"),
            "Invalid type: 'outbound'. Valid values are: OUTBOUND, INBOUND");
  for (const char* q : {"?page=0", "?page=x", "?page_size=0", "?page_size=101",
                        "?page=9223372036854775807&page_size=100"}) {
    r = pub("GET", std::string{"/api/v2/voice-campaigns"} + q, t.key);
    EXPECT_EQ(r.status, 400u) << q << r.body;
  }
}

TEST_F(campaign_test, the_read_counts_leads_by_call_status) {
  auto t = create_tenant();
  auto id = create_campaign(t.key);
  auto read = parse(pub("GET", "/api/v2/voice-campaigns/" + id, t.key).body);
  auto& fresh = read["data"];
  for (const char* s : {"IDLE", "QUEUED", "IN_PROGRESS", "COMPLETED", "FAILED"})
    EXPECT_EQ(fresh["lead_counts"][s].GetInt64(), 0) << s;
  EXPECT_TRUE(fresh["next_dial_at"].IsNull());
  EXPECT_TRUE(fresh["counts_as_of"].IsString());
  for (const char* phone : {"+14155552671", "+14155552672", "+999123456789"}) {
    auto r = pub("POST", "/api/v2/voice-campaigns/" + id + "/leads", t.key,
                 std::string{R"({"phone_number":")"} + phone + "\"}");
    ASSERT_EQ(r.status, 201u) << r.body;
  }
  // Counts are kept for up to two seconds per node.
  rapidjson::Document d;
  ASSERT_TRUE(eventually([&] {
    d = parse(pub("GET", "/api/v2/voice-campaigns/" + id, t.key).body);
    return d["data"]["lead_counts"]["IDLE"].GetInt64() == 3;
  }));
  auto& data = d["data"];
  EXPECT_EQ(data["answered_count"].GetInt64(), 0);
  EXPECT_EQ(data["failed_count"].GetInt64(), 0);
  EXPECT_EQ(data["dialable_count"].GetInt64(), 2) << "the invalid number is never dialed";
  EXPECT_TRUE(data["next_dial_at"].IsNull()) << "a DRAFT campaign does not dial";
  EXPECT_EQ(data["lead_count"].GetInt64(), 3);
}

// dialable_count is what the dialer would call: a lead marked do_not_call
// and a lead whose number is on the tenant's do-not-call list are not.
TEST_F(campaign_test, dialable_count_leaves_out_the_do_not_call_list) {
  auto t = create_tenant();
  auto id = create_campaign(t.key);
  for (const char* phone : {"+14155552671", "+14155552672", "+14155552673"}) {
    auto r = pub("POST", "/api/v2/voice-campaigns/" + id + "/leads", t.key,
                 std::string{R"({"phone_number":")"} + phone + "\"}");
    ASSERT_EQ(r.status, 201u) << r.body;
  }
  auto marked = pub("PATCH", "/api/v2/voice-campaigns/" + id + "/leads/update/bulk", t.key,
                    R"([{"phone_number":"+14155552672","do_not_call":true}])");
  ASSERT_EQ(marked.status, 200u) << marked.body;
  auto listed = pub("POST", "/api/v2/do-not-call", t.key, R"({"phone_number":"+14155552673"})");
  ASSERT_EQ(listed.status, 201u) << listed.body;
  rapidjson::Document d;
  ASSERT_TRUE(eventually([&] {
    d = parse(pub("GET", "/api/v2/voice-campaigns/" + id, t.key).body);
    return d["data"]["lead_counts"]["IDLE"].GetInt64() == 3;
  }));
  EXPECT_EQ(d["data"]["dialable_count"].GetInt64(), 1) << d["data"]["dialable_count"].GetInt64();
}

} // namespace
} // namespace vcs::test
