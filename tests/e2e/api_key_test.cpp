// The tenant's own keys: made, listed masked, enabled, disabled, deleted and
// expired through the public API; each permission and campaign list holds
// on every route; a key never makes or changes a key that reaches more than
// itself.

#include "http/work/routes.hpp"
#include "service_fixture.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>

namespace vcs::test {
namespace {

using namespace std::chrono_literals;

class api_key_test : public service_test {
protected:
  // A key made with `holder`; answers (status, key or body).
  std::pair<unsigned, std::string> make_key(const std::string& holder, const std::string& body) {
    auto r = pub("POST", "/api/v2/api-keys", holder, body);
    if (r.status != 201)
      return {r.status, r.body};
    return {r.status, str(parse(r.body)["data"], "key")};
  }
  std::string campaign(const std::string& key, const std::string& name) {
    auto r = pub("POST", "/api/v2/voice-campaigns", key, R"({"name":")" + name + R"("})");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "campaign_id");
  }
  std::string message(const http_response& r) { return str(parse(r.body), "message"); }
};

TEST_F(api_key_test, a_key_is_shown_once_listed_masked_and_disabled_enabled_and_deleted) {
  auto t = create_tenant();
  auto made = pub("POST", "/api/v2/api-keys", t.key, R"({"name":"dialer"})");
  ASSERT_EQ(made.status, 201u) << made.body;
  auto doc = parse(made.body);
  const auto key = str(doc["data"], "key");
  const auto id = str(doc["data"], "id");
  EXPECT_TRUE(key.starts_with("vcs_"));
  EXPECT_EQ(str(doc["data"], "masked_key"), "vcs_****" + key.substr(key.size() - 4));
  EXPECT_EQ(doc["data"]["permissions"].Size(), 14u) << "the maker's permissions: all";
  EXPECT_TRUE(doc["data"]["campaign_ids"].IsNull());
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns", key).status, 200u);

  auto listed = pub("GET", "/api/v2/api-keys", t.key);
  ASSERT_EQ(listed.status, 200u) << listed.body;
  EXPECT_EQ(listed.body.find(key), std::string::npos) << "the full key is listed";
  auto keys = parse(listed.body);
  ASSERT_EQ(keys["data"].Size(), 2u);
  EXPECT_EQ(str(keys["data"][1], "name"), "dialer");
  EXPECT_EQ(str(keys["data"][1], "status"), "Active");
  EXPECT_FALSE(keys["data"][1]["last_used_at"].IsNull()) << "it was used";

  auto disabled = pub("PATCH", "/api/v2/api-keys/" + id, t.key, R"({"status":"Disabled"})");
  ASSERT_EQ(disabled.status, 200u) << disabled.body;
  EXPECT_EQ(str(parse(disabled.body)["data"], "status"), "Disabled");
  auto refused = pub("GET", "/api/v2/voice-campaigns", key);
  EXPECT_EQ(refused.status, 401u);
  EXPECT_EQ(message(refused), "API key is disabled");
  EXPECT_EQ(pub("PATCH", "/api/v2/api-keys/" + id, t.key, R"({"status":"Active"})").status, 200u);
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns", key).status, 200u);
  auto bad = pub("PATCH", "/api/v2/api-keys/" + id, t.key, R"({"status":"Paused"})");
  EXPECT_EQ(bad.status, 400u) << bad.body;

  auto deleted = pub("DELETE", "/api/v2/api-keys/" + id, t.key);
  ASSERT_EQ(deleted.status, 200u) << deleted.body;
  EXPECT_EQ(message(deleted), "API key deleted");
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns", key).status, 401u);
  EXPECT_EQ(pub("DELETE", "/api/v2/api-keys/" + id, t.key).status, 404u);
  // Another tenant's key does not exist for this one.
  auto other = create_tenant();
  EXPECT_EQ(pub("DELETE", "/api/v2/api-keys/" + other.key_id, t.key).status, 404u);
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns", other.key).status, 200u);
}

// A tenant holds at most 1,000 keys, so its list (and every read of it)
// stays bounded; a deleted key makes room.
TEST_F(api_key_test, a_tenant_holds_at_most_a_thousand_keys) {
  auto t = create_tenant();
  std::string last_id;
  for (int i = 1; i < 1000; ++i) {
    auto r = pub("POST", "/api/v2/api-keys", t.key, R"({"name":"k)" + std::to_string(i) + "\"}");
    ASSERT_EQ(r.status, 201u) << i << ": " << r.body;
    last_id = str(parse(r.body)["data"], "id");
  }
  auto over = pub("POST", "/api/v2/api-keys", t.key, R"({"name":"one too many"})");
  EXPECT_EQ(over.status, 400u) << over.body;
  EXPECT_EQ(message(over), "A tenant may hold at most 1000 API keys; delete one first");
  ASSERT_EQ(pub("DELETE", "/api/v2/api-keys/" + last_id, t.key).status, 200u);
  EXPECT_EQ(pub("POST", "/api/v2/api-keys", t.key, R"({"name":"room again"})").status, 201u);
}

TEST_F(api_key_test, bad_key_requests_name_the_field) {
  auto t = create_tenant();
  for (const auto& [body, field] : std::vector<std::pair<std::string, std::string>>{
           {R"({})", "name"},
           {R"({"name":"x","permissions":["campaigns:fly"]})", "permissions"},
           {R"({"name":"x","permissions":[]})", "permissions"},
           {R"({"name":"x","permissions":"everything"})", "permissions"},
           {R"({"name":"x","campaign_ids":["nope"]})", "campaign_ids"},
           {R"({"name":"x","expires_at":"2001-01-01T00:00:00Z"})", "expires_at"},
           {R"({"name":"x","expires_at":"soon"})", "expires_at"}}) {
    auto r = pub("POST", "/api/v2/api-keys", t.key, body);
    EXPECT_EQ(r.status, 400u) << body << ": " << r.body;
    EXPECT_TRUE(parse(r.body)["errors"].HasMember(field.c_str())) << body << ": " << r.body;
  }
}

// Every public route that takes a key: a key with every permission but the
// route's is refused 403 naming it, before the route does anything.
TEST_F(api_key_test, each_route_refuses_a_key_without_its_permission) {
  auto t = create_tenant();
  const auto c = campaign(t.key, "scoped");
  const auto table = http::public_routes();
  for (const auto& route : table.routes()) {
    // Paths with an empty id answer 400 before any route runs.
    if (!route.permission || route.pattern.find("//") != std::string::npos)
      continue;
    const std::string needed{domain::to_string(*route.permission)};
    std::string all_but;
    for (auto p : domain::all_permissions)
      if (p != *route.permission)
        all_but += std::string{all_but.empty() ? "" : ","} + "\"" +
                   std::string{domain::to_string(p)} + "\"";
    auto [status, key] =
        make_key(t.key, R"({"name":"without )" + needed + R"(","permissions":[)" + all_but + "]}");
    ASSERT_EQ(status, 201u) << key;
    auto target = std::regex_replace(route.pattern, std::regex{R"(\{campaign_id\})"}, c);
    target = std::regex_replace(target, std::regex{R"(\{[a-z_]+\})"}, "1");
    const std::string body = route.method == "GET" ? "" : "[]";
    auto r = pub(route.method, target, key, body);
    EXPECT_EQ(r.status, 403u) << route.method << " " << route.pattern << ": " << r.body;
    EXPECT_EQ(message(r), "This API key lacks the permission " + needed)
        << route.method << " " << route.pattern;
  }
}

TEST_F(api_key_test, a_read_only_key_reads_and_is_refused_every_write) {
  auto t = create_tenant();
  const auto c = campaign(t.key, "read me");
  auto [status, reader] = make_key(t.key, R"({"name":"reports","permissions":"read_only"})");
  ASSERT_EQ(status, 201u) << reader;
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns/" + c, reader).status, 200u);
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns/" + c + "/leads/list", reader).status, 200u);
  EXPECT_EQ(pub("GET", "/api/v2/api-keys", reader).status, 200u);
  auto write = pub("PATCH", "/api/v2/voice-campaigns/" + c, reader, R"({"name":"renamed"})");
  EXPECT_EQ(write.status, 403u);
  EXPECT_EQ(message(write), "This API key lacks the permission campaigns:write");
  auto lead = pub("POST", "/api/v2/voice-campaigns/" + c + "/leads", reader,
                  R"({"phone_number":"+14155550100"})");
  EXPECT_EQ(lead.status, 403u);
  EXPECT_EQ(message(lead), "This API key lacks the permission leads:write");
}

// A key cannot make or change a key that reaches more than itself: a
// permission, a campaign or a later expiry it lacks.
TEST_F(api_key_test, a_key_never_makes_or_changes_a_stronger_key) {
  auto t = create_tenant();
  const auto c1 = campaign(t.key, "one"), c2 = campaign(t.key, "two");
  auto [s1, manager] = make_key(
      t.key, R"({"name":"manager","permissions":["campaigns:read","keys:read","keys:write"],)"
             R"("campaign_ids":[")" +
                 c1 + R"("],"expires_at":"2099-01-01T00:00:00Z"})");
  ASSERT_EQ(s1, 201u) << manager;
  auto more = make_key(manager, R"({"name":"x","permissions":["leads:write"]})");
  EXPECT_EQ(more.first, 403u);
  EXPECT_NE(more.second.find("lacks leads:write"), std::string::npos) << more.second;
  auto wider = make_key(manager, R"({"name":"x","campaign_ids":[")" + c2 + R"("]})");
  EXPECT_EQ(wider.first, 403u) << wider.second;
  auto later = make_key(manager, R"({"name":"x","expires_at":"2100-01-01T00:00:00Z"})");
  EXPECT_EQ(later.first, 403u) << later.second;
  auto [s2, weaker] = make_key(manager, R"({"name":"weaker","permissions":["campaigns:read"]})");
  EXPECT_EQ(s2, 201u) << weaker;
  // Left out, the maker's campaigns and expiry.
  auto listed = parse(pub("GET", "/api/v2/api-keys", t.key).body);
  const auto& made = listed["data"][listed["data"].Size() - 1];
  EXPECT_EQ(made["campaign_ids"].Size(), 1u);
  EXPECT_EQ(str(made, "expires_at"), "2099-01-01T00:00:00.000000Z");
  // The tenant's first key reaches everything: the manager cannot touch it.
  auto first_id = str(listed["data"][0], "id");
  auto disable = pub("PATCH", "/api/v2/api-keys/" + first_id, manager, R"({"status":"Disabled"})");
  EXPECT_EQ(disable.status, 403u) << disable.body;
  EXPECT_EQ(pub("DELETE", "/api/v2/api-keys/" + first_id, manager).status, 403u);
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns", t.key).status, 200u);
}

TEST_F(api_key_test, a_key_held_to_campaigns_reaches_only_them) {
  auto t = create_tenant();
  const auto mine = campaign(t.key, "mine"), other = campaign(t.key, "other");
  auto [status, key] =
      make_key(t.key, R"({"name":"one campaign","campaign_ids":[")" + mine + R"("]})");
  ASSERT_EQ(status, 201u) << key;
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns/" + mine, key).status, 200u);
  auto refused = pub("GET", "/api/v2/voice-campaigns/" + other + "/leads/list", key);
  EXPECT_EQ(refused.status, 403u);
  EXPECT_EQ(message(refused), "This API key has no access to this campaign");
  auto list = parse(pub("GET", "/api/v2/voice-campaigns", key).body);
  ASSERT_EQ(list["data"].Size(), 1u);
  EXPECT_EQ(str(list["data"][0], "id"), mine);
  EXPECT_EQ(list["meta"]["total"].GetInt64(), 1);
  auto create = pub("POST", "/api/v2/voice-campaigns", key, R"({"name":"new"})");
  EXPECT_EQ(create.status, 403u);
  EXPECT_EQ(message(create), "This API key reaches only some campaigns and cannot create one");
}

TEST_F(api_key_test, an_expired_key_is_refused) {
  auto t = create_tenant();
  const auto at = std::chrono::system_clock::now() + 2s;
  const auto expires =
      domain::format_utc(std::chrono::time_point_cast<std::chrono::microseconds>(at));
  auto [status, key] = make_key(t.key, R"({"name":"brief","expires_at":")" + expires + R"("})");
  ASSERT_EQ(status, 201u) << key;
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns", key).status, 200u);
  std::this_thread::sleep_until(at + 200ms);
  auto refused = pub("GET", "/api/v2/voice-campaigns", key);
  EXPECT_EQ(refused.status, 401u);
  EXPECT_EQ(message(refused), "API key has expired");
}

} // namespace
} // namespace vcs::test
