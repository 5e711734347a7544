// Phone number pools (/api/v2/phone-number-pools): create, list, read,
// update and delete; validation; campaigns that name a pool; a pool in use
// is kept; another tenant's pool is not found; keys held to some campaigns
// change none.

#include "service_fixture.hpp"

namespace vcs::test {
namespace {

class phone_number_pool_test : public service_test {
protected:
  http_response create(const std::string& key, const std::string& body) {
    return pub("POST", "/api/v2/phone-number-pools", key, body);
  }
  // A pool of `numbers` (a JSON array's items); answers its id.
  std::string pool(const std::string& key, const std::string& numbers = R"("pn_1","pn_2")") {
    auto r = create(key, R"({"name":"East","phone_number_ids":[)" + numbers + "]}");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "id");
  }
  http_response campaign_with_pool(const std::string& key, const std::string& pool_id) {
    return pub("POST", "/api/v2/voice-campaigns", key,
               R"({"name":"pooled","dialer_type":"POOL","phone_number_pool_id":")" + pool_id +
                   "\"}");
  }
};

TEST_F(phone_number_pool_test, a_pool_is_created_read_listed_changed_and_deleted) {
  auto t = create_tenant();
  auto r = create(t.key, R"({"name":"East coast","phone_number_ids":["pn_1","pn_2"],)"
                         R"("daily_cap_per_number":40,"timezone":"America/New_York"})");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto made = parse(r.body);
  const auto id = str(made["data"], "id");
  EXPECT_EQ(str(made["data"], "name"), "East coast");
  EXPECT_EQ(made["data"]["daily_cap_per_number"].GetInt(), 40);
  EXPECT_EQ(str(made["data"], "timezone"), "America/New_York");
  ASSERT_EQ(made["data"]["numbers"].Size(), 2u);
  EXPECT_EQ(str(made["data"]["numbers"][1], "phone_number_id"), "pn_2");
  EXPECT_EQ(made["data"]["numbers"][1]["calls_today"].GetInt(), 0);
  EXPECT_EQ(made["data"]["calls_left_today"].GetInt(), 80);

  // Defaults: a cap of 100 a number, counted in UTC days.
  auto plain = parse(create(t.key, R"({"name":"Plain","phone_number_ids":["pn_9"]})").body);
  EXPECT_EQ(plain["data"]["daily_cap_per_number"].GetInt(), 100);
  EXPECT_EQ(str(plain["data"], "timezone"), "UTC");

  auto read = pub("GET", "/api/v2/phone-number-pools/" + id, t.key);
  ASSERT_EQ(read.status, 200u) << read.body;
  EXPECT_EQ(str(parse(read.body)["data"], "name"), "East coast");
  auto list = pub("GET", "/api/v2/phone-number-pools?page=1&page_size=1", t.key);
  ASSERT_EQ(list.status, 200u) << list.body;
  auto listed = parse(list.body);
  EXPECT_EQ(listed["meta"]["total"].GetInt(), 2);
  ASSERT_EQ(listed["data"].Size(), 1u);
  EXPECT_EQ(str(listed["data"][0], "id"), id) << "oldest first";

  // Given numbers replace the pool's, in their order.
  auto changed = pub("PATCH", "/api/v2/phone-number-pools/" + id, t.key,
                     R"({"phone_number_ids":["pn_3","pn_1"],"daily_cap_per_number":5})");
  ASSERT_EQ(changed.status, 200u) << changed.body;
  auto c = parse(changed.body);
  EXPECT_EQ(str(c["data"], "name"), "East coast");
  ASSERT_EQ(c["data"]["numbers"].Size(), 2u);
  EXPECT_EQ(str(c["data"]["numbers"][0], "phone_number_id"), "pn_3");
  EXPECT_EQ(str(c["data"]["numbers"][1], "phone_number_id"), "pn_1");
  EXPECT_EQ(c["data"]["calls_left_today"].GetInt(), 10);

  auto gone = pub("DELETE", "/api/v2/phone-number-pools/" + id, t.key);
  ASSERT_EQ(gone.status, 200u) << gone.body;
  EXPECT_EQ(pub("GET", "/api/v2/phone-number-pools/" + id, t.key).status, 404u);
  EXPECT_EQ(pub("DELETE", "/api/v2/phone-number-pools/" + id, t.key).status, 404u);
  EXPECT_EQ(pub("PATCH", "/api/v2/phone-number-pools/" + id, t.key, R"({"name":"x"})").status,
            404u);
}

TEST_F(phone_number_pool_test, bad_fields_are_named) {
  auto t = create_tenant();
  const std::pair<const char*, const char*> cases[] = {
      {R"({"phone_number_ids":["pn_1"]})", "name"},
      {R"({"name":"x"})", "phone_number_ids"},
      {R"({"name":"x","phone_number_ids":[]})", "phone_number_ids"},
      {R"({"name":"x","phone_number_ids":["pn_1","pn_1"]})", "phone_number_ids"},
      {R"({"name":"x","phone_number_ids":[" "]})", "phone_number_ids"},
      {R"({"name":"x","phone_number_ids":[7]})", "phone_number_ids"},
      {R"({"name":"x","phone_number_ids":"pn_1"})", "phone_number_ids"},
      {R"({"name":" ","phone_number_ids":["pn_1"]})", "name"},
      {R"({"name":"x","phone_number_ids":["pn_1"],"daily_cap_per_number":0})",
       "daily_cap_per_number"},
      {R"({"name":"x","phone_number_ids":["pn_1"],"timezone":"Mars/Olympus"})", "timezone"},
  };
  for (const auto& [body, field] : cases) {
    auto r = create(t.key, body);
    EXPECT_EQ(r.status, 400u) << body << " " << r.body;
    auto d = parse(r.body);
    EXPECT_TRUE(d.HasMember("errors") && d["errors"].IsObject() && d["errors"].HasMember(field))
        << body << " " << r.body;
  }
  std::string many;
  for (int i = 0; i <= 100; ++i)
    many += (i ? ",\"pn_" : "\"pn_") + std::to_string(i) + "\"";
  auto over = create(t.key, R"({"name":"x","phone_number_ids":[)" + many + "]}");
  EXPECT_EQ(over.status, 400u) << over.body;
  auto id = pool(t.key);
  auto bad = pub("PATCH", "/api/v2/phone-number-pools/" + id, t.key, R"({"phone_number_ids":[]})");
  EXPECT_EQ(bad.status, 400u) << bad.body;
  EXPECT_EQ(pub("GET", "/api/v2/phone-number-pools/not-an-id", t.key).status, 404u);
}

TEST_F(phone_number_pool_test, campaigns_name_only_pools_of_their_tenant_and_keep_them) {
  auto t = create_tenant();
  auto other = create_tenant();
  auto mine = pool(t.key);
  auto theirs = pool(other.key);

  auto foreign = campaign_with_pool(t.key, theirs);
  ASSERT_EQ(foreign.status, 404u) << foreign.body;
  EXPECT_EQ(str(parse(foreign.body), "message"), "Phone number pool not found");
  EXPECT_EQ(pub("GET", "/api/v2/phone-number-pools/" + theirs, t.key).status, 404u);
  EXPECT_EQ(pub("DELETE", "/api/v2/phone-number-pools/" + theirs, t.key).status, 404u);
  auto listed = parse(pub("GET", "/api/v2/phone-number-pools", t.key).body);
  ASSERT_EQ(listed["data"].Size(), 1u);
  EXPECT_EQ(str(listed["data"][0], "id"), mine);

  auto made = campaign_with_pool(t.key, mine);
  ASSERT_EQ(made.status, 201u) << made.body;
  const auto campaign = str(parse(made.body)["data"], "campaign_id");
  auto in_use = pub("DELETE", "/api/v2/phone-number-pools/" + mine, t.key);
  EXPECT_EQ(in_use.status, 409u) << in_use.body;

  // A campaign moved to another pool, or ended, lets its pool go.
  auto changed = pub("PATCH", "/api/v2/voice-campaigns/" + campaign, t.key,
                     R"({"phone_number_pool_id":")" + theirs + "\"}");
  EXPECT_EQ(changed.status, 404u) << changed.body;
  auto next = pool(t.key, R"("pn_7")");
  ASSERT_EQ(pub("PATCH", "/api/v2/voice-campaigns/" + campaign, t.key,
                R"({"phone_number_pool_id":")" + next + "\"}")
                .status,
            200u);
  EXPECT_EQ(pub("DELETE", "/api/v2/phone-number-pools/" + mine, t.key).status, 200u);
  ASSERT_EQ(pub("PATCH", "/api/v2/voice-campaigns/" + campaign + "/status", t.key,
                R"({"status":"ENDED"})")
                .status,
            200u);
  EXPECT_EQ(pub("DELETE", "/api/v2/phone-number-pools/" + next, t.key).status, 200u);
}

TEST_F(phone_number_pool_test, a_key_held_to_some_campaigns_reads_pools_but_changes_none) {
  auto t = create_tenant();
  auto id = pool(t.key);
  auto c = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"one"})");
  ASSERT_EQ(c.status, 201u) << c.body;
  auto made = pub("POST", "/api/v2/api-keys", t.key,
                  R"({"name":"held","campaign_ids":[")" +
                      str(parse(c.body)["data"], "campaign_id") + R"("]})");
  ASSERT_EQ(made.status, 201u) << made.body;
  const auto held = str(parse(made.body)["data"], "key");
  EXPECT_EQ(pub("GET", "/api/v2/phone-number-pools/" + id, held).status, 200u);
  EXPECT_EQ(create(held, R"({"name":"x","phone_number_ids":["pn_1"]})").status, 403u);
  EXPECT_EQ(pub("PATCH", "/api/v2/phone-number-pools/" + id, held, R"({"name":"x"})").status, 403u);
  EXPECT_EQ(pub("DELETE", "/api/v2/phone-number-pools/" + id, held).status, 403u);
}

} // namespace
} // namespace vcs::test
