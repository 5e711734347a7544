// External billing reads, the PRO gate, and operator-issued payment requests.

#include "domain/global_id.hpp"
#include "service_fixture.hpp"

namespace vcs::test {
namespace {

class billing_test : public service_test {
protected:
  void SetUp() override {
    t = create_tenant("PRO");
    ASSERT_EQ(op("POST", "/admin/v1/tenants/" + t.id + "/products",
                 R"({"product_id":"prod_b","name":"Billing plan","pricing_model":"flat",
                     "min_minutes_included":500,"additional_minute_price":"0.02",
                     "prices":[{"price_id":"price_b","unit_amount":"49","currency":"USD","interval":"month"}]})")
                  .status,
              201u);
    client_gid = new_client("pay@acme.io");
    client_id = std::to_string(*domain::decode_global_id(domain::entity::client, client_gid));
    auto subs = parse(pub("GET", "/api/v2/external-billing/subscriptions", t.key).body);
    subscription_id = str(subs["data"][0], "id");
  }

  std::string new_client(const std::string& email) {
    auto r = pub("POST", "/api/v2/clients/create", t.key,
                 R"({"client_users":[{"email":")" + email + R"(","password":"plum orchard 1"}],
                     "client_details":{"name":"Payer","email":")" +
                     email + R"("},
                     "client_asset_group":{"name":"g"},
                     "billing_provider":{"type":"processor","selected_product":{"product_id":"prod_b","price_ids":["price_b"]}}})");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "client_id");
  }

  http_response issue(const std::string& type, const std::string& amount = "49.00",
                      const std::string& client = "") {
    return op("POST", "/admin/v1/payment-requests",
              R"({"client_id":")" + (client.empty() ? client_id : client) +
                  R"(","subscription_id":")" + subscription_id + R"(","type":")" + type +
                  R"(","amount":")" + amount +
                  R"(","currency":"usd","due_date":"2099-12-01T00:00:00Z",)" +
                  (type == "SUBSCRIPTION" || type == "OVERAGE"
                       ? R"("grace_period_ends_at":"2099-12-08T00:00:00Z",)"
                       : "") +
                  R"("period_start":"2026-11-01",
                "period_end":"2026-12-01","line_items":[{"description":"Plan","amount":"49.00"}],"notes":"first"})");
  }

  tenant_info t;
  std::string client_gid, client_id, subscription_id;
};

TEST_F(billing_test, below_pro_is_403_on_every_billing_route) {
  for (const char* plan : {"FREE", "STARTER"}) {
    auto low = create_tenant(plan);
    for (const char* path :
         {"/api/v2/external-billing/payment-requests",
          "/api/v2/external-billing/payment-requests/1/", "/api/v2/external-billing/subscriptions",
          "/api/v2/external-billing/subscriptions/1/", "/api/v2/external-billing/usage"}) {
      auto r = pub("GET", path, low.key);
      EXPECT_EQ(r.status, 403u) << plan << " " << path;
      EXPECT_EQ(
          str(parse(r.body), "message"),
          "External Billing API access requires a PRO plan. Error Code: external_billing_api");
    }
  }
  auto enterprise = create_tenant("ENTERPRISE");
  EXPECT_EQ(pub("GET", "/api/v2/external-billing/usage", enterprise.key).status, 200u);
}

TEST_F(billing_test, operator_issues_payment_requests_as_pending) {
  auto r = issue("SUBSCRIPTION");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto p = parse(r.body);
  EXPECT_FALSE(str(p, "id").empty());
  EXPECT_EQ(str(p, "client_id"), client_id);
  EXPECT_EQ(str(p, "client_name"), "Payer");
  EXPECT_EQ(str(p, "subscription_id"), subscription_id);
  EXPECT_EQ(str(p, "status"), "PENDING");
  EXPECT_EQ(str(p, "type"), "SUBSCRIPTION");
  EXPECT_EQ(str(p, "amount"), "49.00");
  EXPECT_EQ(str(p, "currency"), "USD");
  EXPECT_EQ(str(p, "due_date"), "2099-12-01T00:00:00");
  EXPECT_EQ(str(p, "grace_period_ends_at"), "2099-12-08T00:00:00");
  EXPECT_TRUE(p["paid_at"].IsNull());
  EXPECT_TRUE(p["external_payment_id"].IsNull());
  EXPECT_EQ(str(p, "notes"), "first");
  ASSERT_EQ(p["line_items"].Size(), 1u);
  EXPECT_EQ(str(p, "period_start"), "2026-11-01T00:00:00");
  EXPECT_EQ(str(p, "created_at").size(), 19u);

  auto got = pub("GET", "/api/v2/external-billing/payment-requests/" + str(p, "id") + "/", t.key);
  ASSERT_EQ(got.status, 200u) << got.body;
  EXPECT_EQ(str(parse(got.body), "id"), str(p, "id"));
}

TEST_F(billing_test, operator_validation_and_references) {
  auto bad = op("POST", "/admin/v1/payment-requests",
                R"({"type":"GIFT","amount":"-1","currency":"dollars","due_date":"someday",
                    "period_start":"2026-11-02","period_end":"2026-11-01","line_items":{}})");
  ASSERT_EQ(bad.status, 400u);
  auto d = parse(bad.body);
  for (const char* f :
       {"client_id", "type", "amount", "currency", "due_date", "period_end", "line_items"})
    EXPECT_TRUE(d["errors"].HasMember(f)) << f << " " << bad.body;
  EXPECT_EQ(issue("ONE_TIME", "5", "999999999").status, 404u);
  auto other_client = new_client("other@acme.io");
  auto other_id = std::to_string(*domain::decode_global_id(domain::entity::client, other_client));
  // The subscription belongs to the first client.
  auto wrong = issue("ONE_TIME", "5", other_id);
  EXPECT_EQ(wrong.status, 404u);
  EXPECT_EQ(str(parse(wrong.body), "message"), "Subscription not found");
}

TEST_F(billing_test, lists_filter_validate_and_page) {
  ASSERT_EQ(issue("SUBSCRIPTION").status, 201u);
  ASSERT_EQ(issue("ADDON", "10").status, 201u);
  ASSERT_EQ(issue("OVERAGE", "3.50").status, 201u);
  auto all = parse(pub("GET", "/api/v2/external-billing/payment-requests", t.key).body);
  EXPECT_EQ(all["meta"]["total"].GetInt(), 3);
  EXPECT_EQ(all["meta"]["page"].GetInt(), 1);
  EXPECT_EQ(all["meta"]["page_size"].GetInt(), 20);
  ASSERT_EQ(all["data"].Size(), 3u);
  EXPECT_EQ(str(all["data"][0], "type"), "OVERAGE"); // newest first

  auto addon =
      parse(pub("GET",
                "/api/v2/external-billing/payment-requests?type=ADDON&status=PENDING&client_id=" +
                    client_gid,
                t.key)
                .body);
  ASSERT_EQ(addon["data"].Size(), 1u);
  EXPECT_EQ(str(addon["data"][0], "amount"), "10.00");
  auto by_int = parse(
      pub("GET", "/api/v2/external-billing/payment-requests?client_id=" + client_id, t.key).body);
  EXPECT_EQ(by_int["meta"]["total"].GetInt(), 3);
  auto paid =
      parse(pub("GET", "/api/v2/external-billing/payment-requests?status=PAID", t.key).body);
  EXPECT_EQ(paid["meta"]["total"].GetInt(), 0);

  auto page2 =
      parse(pub("GET", "/api/v2/external-billing/payment-requests?page=2&page_size=2", t.key).body);
  ASSERT_EQ(page2["data"].Size(), 1u);
  EXPECT_EQ(str(page2["data"][0], "type"), "SUBSCRIPTION");
  EXPECT_EQ(page2["meta"]["total"].GetInt(), 3);

  auto bad_status = pub("GET", "/api/v2/external-billing/payment-requests?status=LOST", t.key);
  ASSERT_EQ(bad_status.status, 400u);
  auto b = parse(bad_status.body);
  EXPECT_NE(str(b, "message").find("LOST"), std::string::npos);
  EXPECT_EQ(b["valid_values"].Size(), 5u);
  auto bad_type = pub("GET", "/api/v2/external-billing/payment-requests?type=GIFT", t.key);
  EXPECT_EQ(bad_type.status, 400u);
  EXPECT_EQ(parse(bad_type.body)["valid_values"].Size(), 4u);
  for (const char* q : {"?page=0", "?page=x", "?page_size=0", "?page_size=101", "?client_id=zz"})
    EXPECT_EQ(
        pub("GET", std::string{"/api/v2/external-billing/payment-requests"} + q, t.key).status,
        400u)
        << q;
  auto sub_status = pub("GET", "/api/v2/external-billing/subscriptions?status=paused", t.key);
  ASSERT_EQ(sub_status.status, 400u);
  EXPECT_EQ(parse(sub_status.body)["valid_values"].Size(), 4u);
}

TEST_F(billing_test, subscriptions_and_usage_reads) {
  auto subs = parse(pub("GET", "/api/v2/external-billing/subscriptions?status=active", t.key).body);
  ASSERT_EQ(subs["data"].Size(), 1u);
  const auto& s = subs["data"][0];
  EXPECT_EQ(str(s, "client_id"), client_id);
  EXPECT_EQ(str(s, "client_name"), "Payer");
  EXPECT_EQ(str(s, "product_id"), "prod_b");
  EXPECT_EQ(str(s, "product_name"), "Billing plan");
  EXPECT_EQ(str(s, "status"), "active");
  EXPECT_EQ(str(s, "current_period_start").size(), 19u);
  auto one = pub("GET", "/api/v2/external-billing/subscriptions/" + subscription_id + "/", t.key);
  ASSERT_EQ(one.status, 200u);
  EXPECT_EQ(str(parse(one.body), "id"), subscription_id);

  auto usage = parse(pub("GET", "/api/v2/external-billing/usage", t.key).body);
  ASSERT_EQ(usage["data"].Size(), 1u);
  const auto& u = usage["data"][0];
  EXPECT_EQ(str(u, "subscription_id"), subscription_id);
  EXPECT_EQ(str(u, "minutes_included_limit"), "500.00");
  EXPECT_EQ(str(u, "minutes_included_used"), "0.00");
  EXPECT_EQ(str(u, "minutes_addon_balance"), "0.00");
  EXPECT_EQ(str(u, "minutes_billable_used"), "0.00");
  EXPECT_EQ(usage["meta"]["total"].GetInt(), 1);
}

TEST_F(billing_test, not_found_and_other_tenants) {
  auto r = pub("GET", "/api/v2/external-billing/payment-requests/999999999/", t.key);
  EXPECT_EQ(r.status, 404u);
  EXPECT_EQ(str(parse(r.body), "message"), "Payment request not found");
  auto s = pub("GET", "/api/v2/external-billing/subscriptions/999999999/", t.key);
  EXPECT_EQ(s.status, 404u);
  EXPECT_EQ(str(parse(s.body), "message"), "Subscription not found");
  auto created = parse(issue("SUBSCRIPTION").body);
  auto stranger = create_tenant("PRO");
  EXPECT_EQ(pub("GET", "/api/v2/external-billing/payment-requests/" + str(created, "id") + "/",
                stranger.key)
                .status,
            404u);
  EXPECT_EQ(
      pub("GET", "/api/v2/external-billing/subscriptions/" + subscription_id + "/", stranger.key)
          .status,
      404u);
  EXPECT_EQ(parse(pub("GET", "/api/v2/external-billing/payment-requests", stranger.key)
                      .body)["meta"]["total"]
                .GetInt(),
            0);
  // The routes are written with a trailing slash.
  EXPECT_EQ(
      pub("GET", "/api/v2/external-billing/payment-requests/" + str(created, "id"), t.key).status,
      404u);
}

} // namespace
} // namespace vcs::test
