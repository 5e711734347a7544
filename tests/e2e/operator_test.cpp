// Operator plane: tenants and the API key lifecycle.

#include "service_fixture.hpp"

#include <regex>
#include <vector>

namespace vcs::test {
namespace {

class operator_test : public service_test {};

TEST_F(operator_test, create_tenant_returns_tenant_and_one_time_key) {
  auto r =
      op("POST", "/admin/v1/tenants", R"({"name":"Acme","plan":"STARTER","campaign_limit":7})");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto d = parse(r.body);
  EXPECT_FALSE(str(d, "tenant_id").empty());
  EXPECT_EQ(str(d, "name"), "Acme");
  EXPECT_EQ(str(d, "plan"), "STARTER");
  EXPECT_EQ(d["campaign_limit"].GetInt(), 7);
  const auto& key = d["api_key"];
  EXPECT_EQ(str(key, "name"), "default");
  EXPECT_EQ(str(key, "status"), "Active");
  auto full = str(key, "key");
  EXPECT_TRUE(std::regex_match(full, std::regex("vcs_[0-9a-f]{48}"))) << full;
  EXPECT_EQ(str(key, "masked_key"), "vcs_****" + full.substr(full.size() - 4));
}

TEST_F(operator_test, plan_default_limit_applies_without_override) {
  auto r = op("POST", "/admin/v1/tenants", R"({"name":"Free one","plan":"FREE"})");
  ASSERT_EQ(r.status, 201u);
  EXPECT_EQ(parse(r.body)["campaign_limit"].GetInt(), 3);
}

TEST_F(operator_test, create_tenant_validation_names_each_field) {
  auto r = op("POST", "/admin/v1/tenants", R"({"plan":"GOLD","campaign_limit":-1})");
  ASSERT_EQ(r.status, 400u);
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "message"), "Validation error");
  ASSERT_TRUE(d["errors"].IsObject());
  EXPECT_TRUE(d["errors"].HasMember("name"));
  EXPECT_TRUE(d["errors"].HasMember("plan"));
  EXPECT_TRUE(d["errors"].HasMember("campaign_limit"));
}

TEST_F(operator_test, update_tenant_changes_only_given_fields) {
  auto t = create_tenant("FREE");
  auto r = op("PATCH", "/admin/v1/tenants/" + t.id, R"({"plan":"ENTERPRISE"})");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "plan"), "ENTERPRISE");
  EXPECT_EQ(d["campaign_limit"].GetInt(), 1000);
  EXPECT_TRUE(d["active"].GetBool());
  auto limited = parse(op("PATCH", "/admin/v1/tenants/" + t.id, R"({"campaign_limit":12})").body);
  EXPECT_EQ(limited["campaign_limit"].GetInt(), 12);
  EXPECT_EQ(str(limited, "plan"), "ENTERPRISE");
  auto reset = parse(op("PATCH", "/admin/v1/tenants/" + t.id, R"({"campaign_limit":null})").body);
  EXPECT_EQ(reset["campaign_limit"].GetInt(), 1000);
  auto got = parse(op("GET", "/admin/v1/tenants/" + t.id).body);
  EXPECT_EQ(str(got, "plan"), "ENTERPRISE");
}

TEST_F(operator_test, tenant_ids_accept_integer_and_global_forms_and_reject_garbage) {
  auto t = create_tenant();
  EXPECT_EQ(op("GET", "/admin/v1/tenants/" + t.id).status, 200u);
  for (const char* bad : {"abc", "0", "-1", "VGVuYW50OjA=", "QXBpS2V5OjE=", "99999999999"}) {
    auto r = op("GET", std::string{"/admin/v1/tenants/"} + bad);
    EXPECT_EQ(r.status, 404u) << bad;
    EXPECT_EQ(str(parse(r.body), "message"), "Tenant not found") << bad;
  }
}

TEST_F(operator_test, update_tenant_rejects_an_empty_patch) {
  auto t = create_tenant();
  auto r = op("PATCH", "/admin/v1/tenants/" + t.id, "{}");
  EXPECT_EQ(r.status, 400u);
  EXPECT_EQ(op("PATCH", "/admin/v1/tenants/VGVuYW50Ojk5OTk5OTk=", R"({"active":false})").status,
            404u);
}

TEST_F(operator_test, tenants_are_listed_in_pages_in_id_order) {
  auto a = create_tenant();
  auto b = create_tenant();
  auto c = create_tenant();
  ASSERT_EQ(op("PATCH", "/admin/v1/tenants/" + b.id, R"({"active":false})").status, 200u);

  // Pages of one from just before `a` walk a, b, c by `next_after`.
  auto after = std::to_string(tenant_db_id(a) - 1);
  std::vector<std::string> walked;
  for (int i = 0; i < 3; ++i) {
    auto r = op("GET", "/admin/v1/tenants?limit=1&after=" + after);
    ASSERT_EQ(r.status, 200u) << r.body;
    auto d = parse(r.body);
    ASSERT_EQ(d["tenants"].Size(), 1u);
    walked.push_back(str(d["tenants"][0], "tenant_id"));
    EXPECT_EQ(str(d, "next_after"), walked.back());
    after = walked.back();
  }
  EXPECT_EQ(walked, (std::vector<std::string>{a.id, b.id, c.id}));

  // The whole page after `a`: b and c (and any tenant made since), with
  // next_after null when the page is not full.
  auto rest = parse(op("GET", "/admin/v1/tenants?after=" + a.id).body);
  EXPECT_EQ(str(rest["tenants"][0], "tenant_id"), b.id);
  EXPECT_FALSE(rest["tenants"][0]["active"].GetBool());
  EXPECT_EQ(str(rest["tenants"][1], "tenant_id"), c.id);
  EXPECT_TRUE(rest["next_after"].IsNull());

  // Only inactive or only active ones.
  auto inactive = parse(op("GET", "/admin/v1/tenants?active=false&after=" + a.id).body);
  ASSERT_GE(inactive["tenants"].Size(), 1u);
  EXPECT_EQ(str(inactive["tenants"][0], "tenant_id"), b.id);
  for (auto& t : inactive["tenants"].GetArray())
    EXPECT_FALSE(t["active"].GetBool());
  auto active = parse(op("GET", "/admin/v1/tenants?active=true&after=" + a.id).body);
  EXPECT_EQ(str(active["tenants"][0], "tenant_id"), c.id);
  // Never a key.
  EXPECT_EQ(rest.HasMember("api_key"), false);
  EXPECT_EQ(op("GET", "/admin/v1/tenants?after=" + a.id).body.find(b.key), std::string::npos);

  EXPECT_EQ(op("GET", "/admin/v1/tenants?active=maybe").status, 400u);
  EXPECT_EQ(op("GET", "/admin/v1/tenants?after=garbage").status, 400u);
  EXPECT_EQ(op("GET", "/admin/v1/tenants?limit=1001").status, 400u);
}

TEST_F(operator_test, api_key_lifecycle) {
  auto t = create_tenant();
  auto created = op("POST", "/admin/v1/tenants/" + t.id + "/api-keys", R"({"name":"dialer"})");
  ASSERT_EQ(created.status, 201u) << created.body;
  auto c = parse(created.body);
  auto key = str(c, "key");
  auto key_id = str(c, "id");
  EXPECT_EQ(str(c, "status"), "Active");
  EXPECT_EQ(pub("GET", "/api/v2/clients", key).status, 200u);

  // Listed masked, never in full.
  auto listed = op("GET", "/admin/v1/tenants/" + t.id + "/api-keys");
  ASSERT_EQ(listed.status, 200u);
  EXPECT_EQ(listed.body.find(key), std::string::npos);
  EXPECT_EQ(listed.body.find(t.key), std::string::npos);
  auto l = parse(listed.body);
  ASSERT_EQ(l["api_keys"].Size(), 2u);
  EXPECT_FALSE(l["api_keys"][1].HasMember("key"));
  EXPECT_EQ(str(l["api_keys"][1], "masked_key"), "vcs_****" + key.substr(key.size() - 4));

  auto disabled = op("PATCH", "/admin/v1/api-keys/" + key_id, R"({"status":"Disabled"})");
  ASSERT_EQ(disabled.status, 200u) << disabled.body;
  EXPECT_EQ(str(parse(disabled.body), "status"), "Disabled");
  EXPECT_EQ(disabled.body.find(key), std::string::npos);
  auto refused = pub("GET", "/api/v2/clients", key);
  EXPECT_EQ(refused.status, 401u);
  EXPECT_EQ(str(parse(refused.body), "message"), "API key is disabled");
  // The tenant's other key is unaffected.
  EXPECT_EQ(pub("GET", "/api/v2/clients", t.key).status, 200u);

  ASSERT_EQ(op("PATCH", "/admin/v1/api-keys/" + key_id, R"({"status":"Active"})").status, 200u);
  EXPECT_EQ(pub("GET", "/api/v2/clients", key).status, 200u);

  auto deleted = op("DELETE", "/admin/v1/api-keys/" + key_id);
  ASSERT_EQ(deleted.status, 200u);
  EXPECT_FALSE(str(parse(deleted.body), "message").empty());
  auto gone = pub("GET", "/api/v2/clients", key);
  EXPECT_EQ(gone.status, 401u);
  EXPECT_EQ(str(parse(gone.body), "message"), "Invalid API key");
  EXPECT_EQ(op("DELETE", "/admin/v1/api-keys/" + key_id).status, 404u);
  EXPECT_EQ(op("PATCH", "/admin/v1/api-keys/" + key_id, R"({"status":"Active"})").status, 404u);
  EXPECT_EQ(pub("GET", "/api/v2/clients", key).status, 401u);
}

TEST_F(operator_test, key_status_must_be_active_or_disabled) {
  auto t = create_tenant();
  auto r = op("PATCH", "/admin/v1/api-keys/" + t.key_id, R"({"status":"Deleted"})");
  EXPECT_EQ(r.status, 400u);
  EXPECT_TRUE(parse(r.body)["errors"].HasMember("status"));
}

TEST_F(operator_test, keys_and_tokens_never_reach_the_log) {
  auto t = create_tenant();
  auto created =
      parse(op("POST", "/admin/v1/tenants/" + t.id + "/api-keys", R"({"name":"x"})").body);
  auto key = str(created, "key");
  pub("GET", "/api/v2/clients", key);
  pub("GET", "/api/v2/clients", t.key);
  auto log = svc.log_contents();
  EXPECT_NE(log.find("access "), std::string::npos) << "access log lines expected";
  EXPECT_EQ(log.find(key), std::string::npos);
  EXPECT_EQ(log.find(t.key), std::string::npos);
  EXPECT_EQ(log.find(svc.operator_token()), std::string::npos);
}

// A sweep or a dial round as of a made-up instant acts on every tenant
// (payments made overdue, campaigns paused): only a service set up for
// tests takes one. The shared test service has allow-test-clock on.
TEST_F(operator_test, a_now_other_than_the_clock_needs_the_test_setting) {
  service_process production{{{"VCS_ALLOW_TEST_CLOCK", "false"}}};
  http_client client{"127.0.0.1", production.operator_port()};
  auto call = [&](const std::string& target, const std::string& body) {
    auto headers = bearer(production.operator_token());
    headers.emplace_back("Content-Type", "application/json");
    return client.request("POST", target, body, headers);
  };
  for (const char* target : {"/admin/v1/billing/sweep", "/admin/v1/dialer/run"}) {
    auto refused = call(target, R"({"now":"2099-01-01T00:00:00Z"})");
    EXPECT_EQ(refused.status, 403u) << target << ": " << refused.body;
    EXPECT_NE(refused.body.find("allow-test-clock (VCS_ALLOW_TEST_CLOCK=true)"), std::string::npos)
        << refused.body;
    auto clock = call(target, "");
    EXPECT_EQ(clock.status, 200u) << target << ": " << clock.body;
  }
  auto shared = op("POST", "/admin/v1/billing/sweep", R"({"now":"2020-01-01T00:00:00Z"})");
  EXPECT_EQ(shared.status, 200u) << shared.body;
  EXPECT_EQ(str(parse(shared.body), "now"), "2020-01-01T00:00:00.000000Z");
}

} // namespace
} // namespace vcs::test
