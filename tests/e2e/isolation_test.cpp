// Tenant isolation: another tenant's ids, sent to every public route that
// takes an id, get 404 and change nothing. The route list comes from the
// router itself, so a new route without a case here fails the test.

#include "domain/global_id.hpp"
#include "http/work/routes.hpp"
#include "service_fixture.hpp"
#include "service_process.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

#include <set>
#include <thread>

namespace vcs::test {
namespace {

class isolation_test : public service_test {};

TEST_F(isolation_test, another_tenants_ids_are_404_on_every_route_that_takes_one) {
  // The owner: a campaign with leads and an import, a billed client with its
  // configuration, a form submission and a payment request.
  auto a = create_tenant("PRO");
  ASSERT_EQ(op("POST", "/admin/v1/tenants/" + a.id + "/products",
               R"({"product_id":"iso","name":"Iso","pricing_model":"flat","min_minutes_included":10,
                   "additional_minute_price":"0.01",
                   "prices":[{"price_id":"iso_m","unit_amount":"5","currency":"USD","interval":"month"}]})")
                .status,
            201u);
  auto c = pub("POST", "/api/v2/voice-campaigns", a.key,
               R"({"name":"owned","webhook_url":"https://hooks.example.com/owned"})");
  auto campaign = str(parse(c.body)["data"], "campaign_id");
  ASSERT_EQ(pub("POST", "/api/v2/voice-campaigns/" + campaign + "/leads", a.key,
                R"({"phone_number":"+14155550111","first_name":"Own"})")
                .status,
            201u);
  auto bulk = pub("POST", "/api/v2/voice-campaigns/" + campaign + "/leads/bulk", a.key,
                  R"([{"phone_number":"+14155550112"}])");
  ASSERT_EQ(bulk.status, 200u) << bulk.body;
  auto import_id = str(parse(bulk.body), "import_id");
  auto cl = pub("POST", "/api/v2/clients/create", a.key,
                R"({"client_users":[{"email":"iso@a.io","password":"plum orchard 1"}],
                    "client_details":{"name":"Iso","email":"iso@a.io"},"client_asset_group":{"name":"g"},
                    "billing_provider":{"type":"processor","selected_product":{"product_id":"iso","price_ids":["iso_m"]}},
                    "assigned_resources":{"campaign":[")" +
                    campaign + R"("]}})");
  ASSERT_EQ(cl.status, 201u) << cl.body;
  auto client = str(parse(cl.body)["data"], "client_id");
  auto config = str(parse(cl.body)["data"], "asset_group_id");
  auto client_user = str(parse(cl.body)["data"]["users"][0], "id");
  auto client_int = std::to_string(*domain::decode_global_id(domain::entity::client, client));
  auto subscription =
      str(parse(pub("GET", "/api/v2/external-billing/subscriptions", a.key).body)["data"][0], "id");
  auto form = op("POST", "/admin/v1/tenants/" + a.id + "/client-forms", R"({"title":"F"})");
  auto form_id = str(parse(form.body), "client_form_id");
  ASSERT_EQ(op("POST", "/admin/v1/client-forms/" + form_id + "/submissions",
               R"({"client_id":")" + client + R"(","response_data":{"q":"a"}})")
                .status,
            201u);
  auto payment = op("POST", "/admin/v1/payment-requests",
                    R"({"client_id":")" + client_int + R"(","subscription_id":")" + subscription +
                        R"(","type":"SUBSCRIPTION","amount":"5","currency":"USD",
                        "due_date":"2099-01-01","period_start":"2098-12-01","period_end":"2099-01-01"})");
  ASSERT_EQ(payment.status, 201u) << payment.body;
  auto payment_id = str(parse(payment.body), "id");
  auto test_event = pub("POST", "/api/v2/voice-campaigns/" + campaign + "/webhook-test", a.key, "");
  ASSERT_EQ(test_event.status, 202u) << test_event.body;
  auto delivery = str(parse(test_event.body)["data"], "id");
  // An endpoint row appears with a delivery's first outcome; this one is
  // written directly, since example.com never answers here.
  std::string endpoint;
  {
    auto sql = storage::open_session(database_url());
    long long id = 0;
    const long long tenant_id = *domain::decode_global_id(domain::entity::tenant, a.id);
    *sql << "INSERT INTO webhook_endpoints (tenant_id, url) VALUES (:t, 'https://hooks.example.com/"
            "other') RETURNING id",
        soci::use(tenant_id), soci::into(id);
    endpoint = std::to_string(id);
  }

  auto pool = pub("POST", "/api/v2/phone-number-pools", a.key,
                  R"({"name":"owned","phone_number_ids":["pn_1"]})");
  ASSERT_EQ(pool.status, 201u) << pool.body;
  const auto pool_path = "/api/v2/phone-number-pools/" + str(parse(pool.body)["data"], "id");

  auto member = op("POST", "/admin/v1/tenants/" + a.id + "/members",
                   R"({"email":"iso-owner-)" + std::to_string(tenant_db_id(a)) + R"(@a.io"})");
  ASSERT_EQ(member.status, 201u) << member.body;
  auto member_id = str(parse(member.body)["data"], "id");

  auto provider_c =
      pub("POST", "/api/v2/voice-pod", a.key,
          R"({"voice_provider":"provider_c","provider_c_api_key":"k","provider_c_webhook_id":"w",)"
          R"("provider_c_webhook_secret_key":"owners_secret"})");
  ASSERT_EQ(provider_c.status, 201u) << provider_c.body;
  const auto a_provider = str(parse(provider_c.body)["data"], "voice_provider_id");

  // The stranger, with a campaign of its own to offer in bodies.
  auto b = create_tenant("PRO");
  auto own =
      str(parse(pub("POST", "/api/v2/voice-campaigns", b.key, R"({"name":"mine"})").body)["data"],
          "campaign_id");
  const std::string v1_body =
      R"({"tenant_id":")" + b.id + R"(","phone_number":"+14155550111","first_name":"X"})";
  // A number on the owner's do-not-call list is not on the stranger's.
  ASSERT_EQ(pub("POST", "/api/v2/do-not-call", a.key, R"({"phone_number":"+14155550177"})").status,
            201u);
  struct attempt {
    std::string method, pattern, path, body;
    unsigned expected = 404;
  };
  const std::string cp = "/api/v2/voice-campaigns/" + campaign;
  std::vector<attempt> attempts{
      {"GET", "/api/v2/clients/{client_id}", "/api/v2/clients/" + client, ""},
      {"GET", "/api/v2/clients/{client_id}/users", "/api/v2/clients/" + client + "/users", ""},
      {"PATCH", "/api/v2/clients/{client_id}/users/{user_id}",
       "/api/v2/clients/" + client + "/users/" + client_user, R"({"status":"Disabled"})"},
      {"POST", "/api/v2/clients/{client_id}/users/{user_id}/setup-link",
       "/api/v2/clients/" + client + "/users/" + client_user + "/setup-link", ""},
      {"PUT", "/api/v2/clients/{client_id}/access", "/api/v2/clients/" + client + "/access",
       R"({"client_access":{"campaign":"full_access"}})"},
      {"GET", "/api/v2/client-forms/{client_form_id}/submissions",
       "/api/v2/client-forms/" + form_id + "/submissions", ""},
      {"GET", "/api/v2/client-account-configurations/{client_account_configuration_id}/resources",
       "/api/v2/client-account-configurations/" + config + "/resources", ""},
      {"POST",
       "/api/v2/client-account-configurations/{client_account_configuration_id}/resources/assign",
       "/api/v2/client-account-configurations/" + config + "/resources/assign",
       R"({"assigned_resources":{"campaign":[")" + own + R"("]}})"},
      {"GET", "/api/v2/external-billing/payment-requests/{payment_request_id}/",
       "/api/v2/external-billing/payment-requests/" + payment_id + "/", ""},
      {"PATCH", "/api/v2/external-billing/payment-requests/{payment_request_id}/update",
       "/api/v2/external-billing/payment-requests/" + payment_id + "/update",
       R"({"status":"PAID"})"},
      {"GET", "/api/v2/external-billing/subscriptions/{subscription_id}/",
       "/api/v2/external-billing/subscriptions/" + subscription + "/", ""},
      {"GET", "/api/v2/voice-campaigns/{campaign_id}", cp, ""},
      {"PATCH", "/api/v2/voice-campaigns/{campaign_id}", cp, R"({"name":"hijacked"})"},
      {"GET", "/api/v2/voice-campaigns/{campaign_id}/calls", cp + "/calls", ""},
      {"GET", "/api/v2/voice-campaigns/{campaign_id}/calls/export", cp + "/calls/export", ""},
      {"GET", "/api/v2/voice-campaigns/{campaign_id}/leads/export", cp + "/leads/export", ""},
      {"GET", "/api/v2/voice-campaigns/{campaign_id}/calls/{call_id}", cp + "/calls/1", ""},
      {"GET", "/api/v2/voice-campaigns/{campaign_id}/forecast", cp + "/forecast", ""},
      {"POST", "/api/v2/voice-campaigns/{campaign_id}/webhook-test", cp + "/webhook-test", ""},
      {"GET", "/api/v2/webhook-deliveries/{delivery_id}", "/api/v2/webhook-deliveries/" + delivery,
       ""},
      {"POST", "/api/v2/webhook-deliveries/{delivery_id}/replay",
       "/api/v2/webhook-deliveries/" + delivery + "/replay", ""},
      {"POST", "/api/v2/webhook-endpoints/{endpoint_id}/enable",
       "/api/v2/webhook-endpoints/" + endpoint + "/enable", ""},
      {"PATCH", "/api/v2/api-keys/{key_id}", "/api/v2/api-keys/" + a.key_id,
       R"({"status":"Disabled"})"},
      {"DELETE", "/api/v2/api-keys/{key_id}", "/api/v2/api-keys/" + a.key_id, ""},
      {"PATCH", "/api/v2/members/{member_id}", "/api/v2/members/" + member_id,
       R"({"role":"viewer"})"},
      {"POST", "/api/v2/members/{member_id}/setup-link",
       "/api/v2/members/" + member_id + "/setup-link", ""},
      {"DELETE", "/api/v2/members/{member_id}", "/api/v2/members/" + member_id, ""},
      {"PATCH", "/api/v2/voice-campaigns/{campaign_id}/status", cp + "/status",
       R"({"status":"ACTIVE"})"},
      {"POST", "/api/v2/voice-campaigns/{campaign_id}/leads", cp + "/leads",
       R"({"phone_number":"+14155550199"})"},
      {"POST", "/api/v2/voice-campaigns/{campaign_id}/leads/bulk", cp + "/leads/bulk",
       R"([{"phone_number":"+14155550198"}])"},
      {"GET", "/api/v2/voice-campaigns/{campaign_id}/leads/imports", cp + "/leads/imports", ""},
      {"GET", "/api/v2/voice-campaigns/{campaign_id}/leads/imports/{import_id}",
       cp + "/leads/imports/" + import_id, ""},
      {"GET", "/api/v2/voice-campaigns/{campaign_id}/leads/imports/{import_id}/rejected-rows",
       cp + "/leads/imports/" + import_id + "/rejected-rows", ""},
      {"GET", "/api/v2/voice-campaigns/{campaign_id}/leads/list", cp + "/leads/list", ""},
      {"PATCH", "/api/v2/voice-campaigns/{campaign_id}/leads/update/bulk",
       cp + "/leads/update/bulk", R"([{"phone_number":"+14155550111","first_name":"X"}])"},
      {"DELETE", "/api/v2/voice-campaigns/{campaign_id}/leads/remove/bulk",
       cp + "/leads/remove/bulk", R"([{"phone_number":"+14155550111"}])"},
      {"PATCH", "/v1/api/voice-campaigns/{campaign_id}/lead/update",
       "/v1/api/voice-campaigns/" + campaign + "/lead/update", v1_body},
      {"DELETE", "/v1/api/voice-campaigns/{campaign_id}/lead/remove",
       "/v1/api/voice-campaigns/" + campaign + "/lead/remove", v1_body},
      {"GET", "/api/v2/phone-number-pools/{pool_id}", pool_path, ""},
      {"PATCH", "/api/v2/phone-number-pools/{pool_id}", pool_path, R"({"name":"hijacked"})"},
      {"DELETE", "/api/v2/phone-number-pools/{pool_id}", pool_path, ""},
      {"GET", "/api/v2/voice-pod/{voice_provider_id}", "/api/v2/voice-pod/" + a_provider, ""},
      {"PATCH", "/api/v2/voice-pod/{voice_provider_id}", "/api/v2/voice-pod/" + a_provider,
       R"({"provider_c_webhook_secret_key":"strangers_secret"})"},
      {"DELETE", "/api/v2/voice-pod/{voice_provider_id}", "/api/v2/voice-pod/" + a_provider, ""},
      {"POST", "/api/v2/voice-pod/{voice_provider_id}/verify",
       "/api/v2/voice-pod/" + a_provider + "/verify", ""},
      {"GET", "/api/v2/voice-pod/{voice_provider_id}/assistants",
       "/api/v2/voice-pod/" + a_provider + "/assistants", ""},
      {"GET", "/api/v2/voice-pod/{voice_provider_id}/phone-numbers",
       "/api/v2/voice-pod/" + a_provider + "/phone-numbers", ""},
      {"GET", "/api/v2/do-not-call/{phone_number}", "/api/v2/do-not-call/+14155550177", "", 200},
      {"DELETE", "/api/v2/do-not-call/{phone_number}", "/api/v2/do-not-call/+14155550177", ""},
      // Provider callbacks take no API key: without the configuration's
      // derived secret they are refused.
      {"POST", "/webhooks/provider-a/{voice_provider_id}", "/webhooks/provider-a/1",
       R"({"message":{"type":"status-update","status":"ringing","call":{"id":"x"}}})", 401},
      // ...and without a signature made with the configuration's API key.
      {"POST", "/webhooks/provider-b/{voice_provider_id}", "/webhooks/provider-b/1",
       R"({"event":"call_started","call":{"call_id":"x"}})", 401},
      // ...or with its webhook's secret, for another tenant's configuration.
      {"POST", "/webhooks/provider-c/{voice_provider_id}", "/webhooks/provider-c/" + a_provider,
       R"({"type":"call_initiation_failure","data":{"conversation_id":"x"}})", 401},
      // ...or without the secret derived for the configuration.
      {"POST", "/webhooks/provider-d/{voice_provider_id}/{secret}",
       "/webhooks/provider-d/1/" + std::string(64, '0'), R"({"call_id":"x"})", 401},
  };
  std::set<std::string> covered;
  for (const auto& at : attempts) {
    auto r = pub(at.method, at.path, b.key, at.body);
    EXPECT_EQ(r.status, at.expected) << at.method << " " << at.pattern << ": " << r.body;
    if (at.expected == 200) {
      EXPECT_NE(r.body.find("\"do_not_call\":false"), std::string::npos) << r.body;
    }
    covered.insert(at.method + " " + at.pattern);
  }
  std::set<std::string> with_ids;
  auto table = http::public_routes();
  // The console's and the portal's pages are the same static files for any
  // path: they hold no tenant's data.
  for (const auto& route : table.routes())
    if (route.pattern.find('{') != std::string::npos && !route.pattern.starts_with("/console/") &&
        !route.pattern.starts_with("/portal/"))
      with_ids.insert(route.method + " " + route.pattern);
  EXPECT_EQ(covered, with_ids) << "every public route that takes an id needs a case here";

  // Nothing of the owner's changed.
  auto users = parse(pub("GET", "/api/v2/clients/" + client + "/users", a.key).body);
  EXPECT_EQ(str(users["data"][0], "status"), "Active");
  auto members = parse(op("GET", "/admin/v1/tenants/" + a.id + "/members").body);
  ASSERT_EQ(members["members"].Size(), 1u);
  EXPECT_EQ(str(members["members"][0], "role"), "owner");
  EXPECT_NE(pub("GET", "/api/v2/do-not-call/+14155550177", a.key).body.find("\"do_not_call\":true"),
            std::string::npos);
  auto provider = parse(pub("GET", "/api/v2/voice-pod/" + a_provider, a.key).body);
  EXPECT_EQ(str(provider["data"]["credentials"], "provider_c_webhook_secret_key"), "****")
      << "the owner's secret, not the stranger's (neither shown)";
  auto owners_list = parse(pub("GET", "/api/v2/voice-pod", a.key).body);
  EXPECT_EQ(owners_list["meta"]["total"].GetInt(), 1);
  EXPECT_EQ(parse(pub("GET", "/api/v2/voice-pod", b.key).body)["meta"]["total"].GetInt(), 0);
  auto kept = parse(pub("GET", pool_path, a.key).body);
  EXPECT_EQ(str(kept["data"], "name"), "owned");
  auto mine = parse(pub("GET", cp, a.key).body);
  EXPECT_EQ(str(mine["data"], "name"), "owned");
  EXPECT_EQ(str(mine["data"], "status"), "DRAFT");
  // The owner's own import lands; the stranger's adds never do.
  rapidjson::Document leads;
  for (int i = 0; i < 100; ++i) {
    leads = parse(pub("GET", cp + "/leads/list", a.key).body);
    if (leads["page_info"]["total_count"].GetInt() >= 2)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  leads = parse(pub("GET", cp + "/leads/list", a.key).body);
  EXPECT_EQ(leads["page_info"]["total_count"].GetInt(), 2);
  for (const auto& l : leads["leads"].GetArray())
    EXPECT_NE(str(l, "first_name"), "X");
  auto p = parse(
      pub("GET", "/api/v2/external-billing/payment-requests/" + payment_id + "/", a.key).body);
  EXPECT_EQ(str(p, "status"), "PENDING");
  auto set = parse(
      pub("GET", "/api/v2/client-account-configurations/" + config + "/resources", a.key).body);
  ASSERT_EQ(set["data"]["assigned_resources"]["campaign"].Size(), 1u);
  EXPECT_EQ(std::string{set["data"]["assigned_resources"]["campaign"][0].GetString()}, campaign);
  // The stranger's lists hold none of the owner's deliveries or endpoints.
  EXPECT_EQ(parse(pub("GET", "/api/v2/webhook-deliveries", b.key).body)["meta"]["total"].GetInt(),
            0);
  EXPECT_EQ(parse(pub("GET", "/api/v2/webhook-endpoints", b.key).body)["meta"]["total"].GetInt(),
            0);
  EXPECT_EQ(parse(pub("GET", "/api/v2/webhook-endpoints", a.key).body)["meta"]["total"].GetInt(),
            1);
}

} // namespace
} // namespace vcs::test
