#pragma once

// A PRO tenant with a billing product (49.00 USD a month, 100 included
// minutes, 0.02 per extra minute) and a subscribed client whose account
// configuration has four campaigns assigned: ACTIVE, SCHEDULED, PAUSED (by
// hand) and DRAFT.

#include "domain/global_id.hpp"
#include "domain/timestamp.hpp"
#include "service_fixture.hpp"

#include <chrono>
#include <map>

namespace vcs::test {

class billing_fixture : public service_test {
protected:
  void SetUp() override {
    t = create_tenant("PRO");
    ASSERT_EQ(op("POST", "/admin/v1/tenants/" + t.id + "/products",
                 R"({"product_id":"prod_r","name":"Rules plan","pricing_model":"flat",
                     "min_minutes_included":100,"additional_minute_price":"0.02",
                     "prices":[{"price_id":"price_r","unit_amount":"49","currency":"USD","interval":"month"}]})")
                  .status,
              201u);
    for (const char* status : {"ACTIVE", "SCHEDULED", "PAUSED", "DRAFT"}) {
      auto r = pub("POST", "/api/v2/voice-campaigns", t.key,
                   R"({"name":"c )" + std::string{status} + "\"}");
      ASSERT_EQ(r.status, 201u) << r.body;
      campaigns[status] = str(parse(r.body)["data"], "campaign_id");
      if (std::string{status} != "DRAFT") {
        ASSERT_EQ(set_campaign(campaigns[status], status).status, 200u);
      }
    }
    auto r = pub("POST", "/api/v2/clients/create", t.key,
                 R"({"client_users":[{"email":"rules@acme.io","password":"plum orchard 1"}],
                     "client_details":{"name":"Rules","email":"rules@acme.io"},
                     "client_asset_group":{"name":"g"},
                     "billing_provider":{"type":"processor","selected_product":{"product_id":"prod_r","price_ids":["price_r"]}},
                     "assigned_resources":{"campaign":[")" +
                     campaigns["ACTIVE"] + R"(",")" + campaigns["SCHEDULED"] + R"(",")" +
                     campaigns["PAUSED"] + R"(",")" + campaigns["DRAFT"] + R"("]}})");
    ASSERT_EQ(r.status, 201u) << r.body;
    client_gid = str(parse(r.body)["data"], "client_id");
    client_id = std::to_string(*domain::decode_global_id(domain::entity::client, client_gid));
    auto subs = parse(pub("GET", "/api/v2/external-billing/subscriptions", t.key).body);
    ASSERT_EQ(subs["data"].Size(), 1u);
    subscription_id = str(subs["data"][0], "id");
  }

  static std::string iso(domain::timestamp at) { return domain::format_utc(at); }
  static domain::timestamp from_now(std::chrono::hours h) { return domain::now() + h; }

  http_response set_campaign(const std::string& id, const std::string& status) {
    return pub("PATCH", "/api/v2/voice-campaigns/" + id + "/status", t.key,
               R"({"status":")" + status + "\"}");
  }

  std::string campaign_status(const std::string& id) {
    auto r = pub("GET", "/api/v2/voice-campaigns/" + id, t.key);
    EXPECT_EQ(r.status, 200u) << r.body;
    return str(parse(r.body)["data"], "status");
  }

  // Why the campaign is paused: "manual", "billing", or "" when the field
  // is null (it is, unless the campaign is PAUSED).
  std::string pause_reason(const std::string& id) {
    auto r = pub("GET", "/api/v2/voice-campaigns/" + id, t.key);
    EXPECT_EQ(r.status, 200u) << r.body;
    const auto doc = parse(r.body);
    const auto& data = doc["data"];
    EXPECT_TRUE(data.HasMember("pause_reason")) << r.body;
    return data["pause_reason"].IsNull() ? "" : str(data, "pause_reason");
  }

  // Every assigned campaign's status, keyed by the status it started with.
  std::map<std::string, std::string> campaign_statuses() {
    std::map<std::string, std::string> out;
    for (const auto& [initial, id] : campaigns)
      out[initial] = campaign_status(id);
    return out;
  }

  static std::map<std::string, std::string> as_created() {
    return {
        {"ACTIVE", "ACTIVE"}, {"SCHEDULED", "SCHEDULED"}, {"PAUSED", "PAUSED"}, {"DRAFT", "DRAFT"}};
  }
  static std::map<std::string, std::string> billing_paused() {
    return {
        {"ACTIVE", "PAUSED"}, {"SCHEDULED", "PAUSED"}, {"PAUSED", "PAUSED"}, {"DRAFT", "DRAFT"}};
  }

  std::string subscription_status() {
    auto r = pub("GET", "/api/v2/external-billing/subscriptions/" + subscription_id + "/", t.key);
    EXPECT_EQ(r.status, 200u) << r.body;
    return str(parse(r.body), "status");
  }

  // Issues a request of the subscription (or, with `linked` false, outside
  // it) due at `due`; cycle requests get a grace period of `grace` after.
  std::string issue(const std::string& type, domain::timestamp due, bool linked = true,
                    std::chrono::hours grace = std::chrono::hours(24)) {
    bool cycle = type == "SUBSCRIPTION" || type == "OVERAGE";
    std::string body = R"({"client_id":")" + client_id + R"(","type":")" + type +
                       R"(","amount":"49.00","currency":"USD","due_date":")" + iso(due) +
                       R"(","period_start":"2026-11-01","period_end":"2026-12-01")";
    if (linked)
      body += R"(,"subscription_id":")" + subscription_id + "\"";
    if (cycle)
      body += R"(,"grace_period_ends_at":")" + iso(due + grace) + "\"";
    auto r = op("POST", "/admin/v1/payment-requests", body + "}");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body), "id");
  }

  http_response set_payment(const std::string& id, const std::string& status,
                            const std::string& external = "") {
    std::string body = R"({"status":")" + status + "\"";
    if (!external.empty())
      body += R"(,"external_payment_id":")" + external + "\"";
    return pub("PATCH", "/api/v2/external-billing/payment-requests/" + id + "/update", t.key,
               body + "}");
  }

  rapidjson::Document payment(const std::string& id) {
    auto r = pub("GET", "/api/v2/external-billing/payment-requests/" + id + "/", t.key);
    EXPECT_EQ(r.status, 200u) << r.body;
    return parse(r.body);
  }

  http_response sweep(domain::timestamp now) {
    return op("POST", "/admin/v1/billing/sweep", R"({"now":")" + iso(now) + "\"}");
  }

  http_response minutes(const std::string& path, const std::string& amount) {
    return op("POST", path, R"({"client_id":")" + client_id + R"(","minutes":")" + amount + "\"}");
  }

  rapidjson::Document usage() {
    auto r = pub("GET", "/api/v2/external-billing/usage?client_id=" + client_id, t.key);
    EXPECT_EQ(r.status, 200u) << r.body;
    auto d = parse(r.body);
    rapidjson::Document one;
    one.CopyFrom(d["data"][0], one.GetAllocator());
    return one;
  }

  tenant_info t;
  std::map<std::string, std::string> campaigns; // initial status -> campaign id
  std::string client_gid, client_id, subscription_id;
};

} // namespace vcs::test
