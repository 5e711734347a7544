// A key's scope holds wherever a campaign id travels, not only in a path:
// client creation and resource assignment, web widgets, webhook deliveries
// (list, read, replay), key creation and the client detail's statistics;
// an Idempotency-Key's stored answer is replayed only to its maker; the key
// list is paged; a key's expiry needs its zone.

#include "service_fixture.hpp"

#include <gtest/gtest.h>

#include <string>

namespace vcs::test {
namespace {

class scope_travel_test : public service_test {
protected:
  void SetUp() override {
    t = create_tenant();
    mine = campaign("mine");
    other = campaign("other");
    scoped = make_key(R"({"name":"held to mine","campaign_ids":[")" + mine + R"("]})");
  }

  std::string campaign(const std::string& name, const std::string& type = "OUTBOUND") {
    auto r = pub("POST", "/api/v2/voice-campaigns", t.key,
                 R"({"name":")" + name + R"(","type":")" + type + R"("})");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "campaign_id");
  }
  std::string make_key(const std::string& body) {
    auto r = pub("POST", "/api/v2/api-keys", t.key, body);
    EXPECT_EQ(r.status, 201u) << r.body;
    return r.status == 201 ? str(parse(r.body)["data"], "key") : "";
  }
  static std::string client_body(const std::string& email, const std::string& campaign_id) {
    return R"({"client_users":[{"email":")" + email +
           R"(","password":"correct horse battery"}],
      "client_details":{"name":"Acme","email":"billing@acme.io"},
      "client_asset_group":{"name":"Acme main"},
      "client_access":{"campaign":"full_access"},
      "assigned_resources":{"campaign":[")" +
           campaign_id + R"("]}})";
  }
  static std::string message(const http_response& r) { return str(parse(r.body), "message"); }
  // A webhook.test delivery queued for the campaign; answers its id.
  std::string test_delivery(const std::string& campaign_id) {
    auto set = pub("PATCH", "/api/v2/voice-campaigns/" + campaign_id, t.key,
                   R"({"webhook_url":"https://hooks.example.com/calls"})");
    EXPECT_EQ(set.status, 200u) << set.body;
    auto r = pub("POST", "/api/v2/voice-campaigns/" + campaign_id + "/webhook-test", t.key);
    EXPECT_EQ(r.status, 202u) << r.body;
    return str(parse(r.body)["data"], "id");
  }

  tenant_info t;
  std::string mine, other, scoped;
};

// The escape of item 1: a key held to `mine` made a client of its own
// choosing, assigned it `other` at full_access and used the portal.
TEST_F(scope_travel_test, a_scoped_key_names_no_other_campaign_in_a_client) {
  auto refused = pub("POST", "/api/v2/clients/create", scoped, client_body("b@acme.io", other));
  EXPECT_EQ(refused.status, 403u) << refused.body;
  EXPECT_EQ(message(refused), "This API key has no access to this campaign");
  auto made = pub("POST", "/api/v2/clients/create", scoped, client_body("a@acme.io", mine));
  ASSERT_EQ(made.status, 201u) << made.body;
  const auto config = str(parse(made.body)["data"], "asset_group_id");
  const auto client = str(parse(made.body)["data"], "client_id");
  const auto assign = "/api/v2/client-account-configurations/" + config + "/resources/assign";

  auto wider = pub("POST", assign, scoped,
                   R"({"assigned_resources":{"campaign":[")" + mine + R"(",")" + other + R"("]}})");
  EXPECT_EQ(wider.status, 403u) << wider.body;
  // The owner assigns both; the scoped key may not take `other` away.
  ASSERT_EQ(pub("POST", assign, t.key,
                R"({"assigned_resources":{"campaign":[")" + mine + R"(",")" + other + R"("]}})")
                .status,
            200u);
  auto narrower =
      pub("POST", assign, scoped, R"({"assigned_resources":{"campaign":[")" + mine + R"("]}})");
  EXPECT_EQ(narrower.status, 403u) << narrower.body;
  auto kept = parse(
      pub("GET", "/api/v2/client-account-configurations/" + config + "/resources", t.key).body);
  std::size_t campaigns = 0;
  for (const auto& kind : kept["data"]["assigned_resources"].GetObject())
    if (std::string{kind.name.GetString()} == "campaign")
      campaigns = kind.value.Size();
  EXPECT_EQ(campaigns, 2u) << "the refused replacement changed nothing";

  // The client detail shows the scoped key only its campaign's statistics.
  auto detail = parse(pub("GET", "/api/v2/clients/" + client, scoped).body);
  ASSERT_EQ(detail["campaigns"]["campaigns"].Size(), 1u);
  EXPECT_EQ(str(detail["campaigns"]["campaigns"][0], "id"), mine);
  EXPECT_EQ(detail["campaigns"]["total_campaigns"].GetInt(), 1);
  auto whole = parse(pub("GET", "/api/v2/clients/" + client, t.key).body);
  EXPECT_EQ(whole["campaigns"]["campaigns"].Size(), 2u);
}

TEST_F(scope_travel_test, a_scoped_key_makes_no_widget_for_another_campaign) {
  const auto inbound = campaign("inbound", "INBOUND");
  auto r =
      pub("POST", "/api/v2/web-widgets", scoped,
          R"({"voice_campaign_id":")" + inbound + R"(","config":{},"voice_assistant_id":"va_1"})");
  EXPECT_EQ(r.status, 403u) << r.body;
  EXPECT_EQ(message(r), "This API key has no access to this campaign");
  EXPECT_EQ(
      pub("POST", "/api/v2/web-widgets", t.key,
          R"({"voice_campaign_id":")" + inbound + R"(","config":{},"voice_assistant_id":"va_1"})")
          .status,
      201u);
}

// Item 2: deliveries carry phone numbers and summaries; a scoped key sees
// only its campaigns' ones, as on the event feed.
TEST_F(scope_travel_test, webhook_deliveries_obey_the_key_scope) {
  const auto own = test_delivery(mine);
  const auto foreign = test_delivery(other);
  auto listed = parse(pub("GET", "/api/v2/webhook-deliveries", scoped).body);
  ASSERT_EQ(listed["data"].Size(), 1u);
  EXPECT_EQ(str(listed["data"][0], "id"), own);
  EXPECT_EQ(listed["meta"]["total"].GetInt(), 1);
  EXPECT_EQ(parse(pub("GET", "/api/v2/webhook-deliveries", t.key).body)["data"].Size(), 2u);
  auto filtered = pub("GET", "/api/v2/webhook-deliveries?campaign_id=" + other, scoped);
  EXPECT_EQ(filtered.status, 403u) << filtered.body;
  EXPECT_EQ(pub("GET", "/api/v2/webhook-deliveries/" + foreign, scoped).status, 404u);
  EXPECT_EQ(pub("GET", "/api/v2/webhook-deliveries/" + own, scoped).status, 200u);
  EXPECT_EQ(pub("POST", "/api/v2/webhook-deliveries/" + foreign + "/replay", scoped).status, 404u);
  EXPECT_EQ(pub("POST", "/api/v2/webhook-deliveries/" + own + "/replay", scoped).status, 202u);
}

// Item 6: a key's campaigns are the tenant's own; the list comes a page at
// a time.
TEST_F(scope_travel_test, key_campaigns_are_the_tenants_and_the_key_list_is_paged) {
  auto foreign = create_tenant();
  auto theirs = pub("POST", "/api/v2/voice-campaigns", foreign.key, R"({"name":"theirs"})");
  const auto their_campaign = str(parse(theirs.body)["data"], "campaign_id");
  for (const auto& id : {their_campaign, std::string{"999999999"}}) {
    auto r = pub("POST", "/api/v2/api-keys", t.key,
                 R"({"name":"made up","campaign_ids":[")" + mine + R"(",")" + id + R"("]})");
    EXPECT_EQ(r.status, 400u) << r.body;
    EXPECT_NE(r.body.find("Campaign not found"), std::string::npos) << r.body;
    EXPECT_NE(r.body.find("campaign_ids"), std::string::npos) << r.body;
  }
  for (int i = 0; i < 22; ++i)
    make_key(R"({"name":"k)" + std::to_string(i) + R"("})");
  auto first = parse(pub("GET", "/api/v2/api-keys", t.key).body);
  EXPECT_EQ(first["data"].Size(), 20u);
  EXPECT_EQ(first["meta"]["total"].GetInt(), 24) << "default, scoped and 22 more";
  EXPECT_EQ(str(first["data"][0], "name"), "default") << "oldest first";
  auto second = parse(pub("GET", "/api/v2/api-keys?page=2&page_size=20", t.key).body);
  EXPECT_EQ(second["data"].Size(), 4u);
  EXPECT_EQ(pub("GET", "/api/v2/api-keys?page_size=101", t.key).status, 400u);
}

// Item 3: a keys-only key repeating the owner's Idempotency-Key and body
// does not receive the owner's new key.
TEST_F(scope_travel_test, an_idempotent_answer_is_replayed_only_to_its_maker) {
  const auto keys_only = make_key(R"({"name":"keys","permissions":["keys:read","keys:write"]})");
  const std::string body = R"({"name":"for the owner"})";
  auto send = [&](const std::string& key) {
    auto headers = bearer(key);
    headers.emplace_back("Idempotency-Key", "same-key-1");
    headers.emplace_back("Content-Type", "application/json");
    return public_client.request("POST", "/api/v2/api-keys", body, headers);
  };
  auto made = send(t.key);
  ASSERT_EQ(made.status, 201u) << made.body;
  auto again = send(t.key);
  EXPECT_EQ(again.status, 201u);
  EXPECT_EQ(again.header("idempotent-replayed"), "true");
  EXPECT_EQ(again.body, made.body);
  auto stranger = send(keys_only);
  EXPECT_EQ(stranger.status, 422u) << stranger.body;
  EXPECT_EQ(stranger.body.find(str(parse(made.body)["data"], "key")), std::string::npos);
}

// Item 10: an expiry without its zone means a different instant to each
// reader.
TEST_F(scope_travel_test, a_key_expiry_needs_its_offset) {
  for (const char* at : {"2028-01-01T10:00:00", "2028-01-01"}) {
    auto r = pub("POST", "/api/v2/api-keys", t.key,
                 std::string{R"({"name":"x","expires_at":")"} + at + R"("})");
    EXPECT_EQ(r.status, 400u) << at << ": " << r.body;
    EXPECT_NE(r.body.find("with its offset"), std::string::npos) << r.body;
  }
  EXPECT_EQ(pub("POST", "/api/v2/api-keys", t.key,
                R"({"name":"x","expires_at":"2028-01-01T10:00:00+02:00"})")
                .status,
            201u);
}

} // namespace
} // namespace vcs::test
