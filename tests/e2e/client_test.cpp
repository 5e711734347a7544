// POST /api/v2/clients/create and GET /api/v2/clients.

#include "domain/global_id.hpp"
#include "metrics_text.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

namespace vcs::test {
namespace {

class client_test : public service_test {
protected:
  void SetUp() override {
    t = create_tenant();
    ASSERT_EQ(op("POST", "/admin/v1/tenants/" + t.id + "/products",
                 R"({"product_id":"prod_basic","name":"Basic","pricing_model":"flat",
                     "min_minutes_included":500,"additional_minute_price":"0.02","trial_days":7,
                     "trial_minutes":30,"prices":[{"price_id":"price_basic_m","billing_type":"recurring",
                     "unit_amount":"49","currency":"USD","interval":"month"}]})")
                  .status,
              201u);
    auto vp = pub("POST", "/api/v2/voice-pod", t.key,
                  R"({"voice_provider":"provider_d","provider_d_api_key":"k"})");
    provider = str(parse(vp.body)["data"], "voice_provider_id");
    auto c = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"for client"})");
    campaign = str(parse(c.body)["data"], "campaign_id");
  }

  std::string body(const std::string& email = "owner@acme.io",
                   const std::string& assigned_campaign = "") {
    return R"({"client_users":[{"email":")" + email + R"(","password":"correct horse"},
                                {"email":"ops@acme.io","password":"battery staple"}],
      "client_details":{"name":"Acme","email":"billing@acme.io"},
      "client_asset_group":{"name":"Acme main","tenant_voice_provider_id":")" +
           provider + R"("},
      "billing_provider":{"type":"processor","selected_product":{"product_id":"prod_basic","price_ids":["price_basic_m"]}},
      "client_access":{"assistant":"view_only","campaign":"view_and_add"},
      "assigned_resources":{"assistant":["asst_1","asst_2"],"campaign":[")" +
           (assigned_campaign.empty() ? campaign : assigned_campaign) + R"("],"phone_number":[]}})";
  }

  long long count(const std::string& table) {
    auto sql = storage::open_session(database_url());
    long long n = 0, tenant = tenant_db_id(t);
    *sql << "SELECT count(*) FROM " + table + " WHERE tenant_id = :t", soci::use(tenant),
        soci::into(n);
    return n;
  }

  tenant_info t;
  std::string provider, campaign;
};

TEST_F(client_test, creates_client_users_configuration_and_subscription) {
  auto r = pub("POST", "/api/v2/clients/create", t.key, body());
  ASSERT_EQ(r.status, 201u) << r.body;
  auto d = parse(r.body);
  EXPECT_TRUE(d["success"].GetBool());
  const auto& data = d["data"];
  EXPECT_TRUE(domain::decode_global_id(domain::entity::client, str(data, "client_id")));
  EXPECT_EQ(str(data, "client_name"), "Acme");
  EXPECT_EQ(str(data, "primary_email"), "billing@acme.io");
  ASSERT_EQ(data["users"].Size(), 2u);
  EXPECT_EQ(str(data["users"][0], "email"), "owner@acme.io");
  EXPECT_FALSE(str(data["users"][0], "id").empty());
  EXPECT_TRUE(
      domain::decode_global_id(domain::entity::account_configuration, str(data, "asset_group_id")));
  EXPECT_EQ(r.body.find("correct horse"), std::string::npos);

  EXPECT_EQ(count("subscriptions"), 1);
  EXPECT_EQ(count("usage_balances"), 1);
  EXPECT_EQ(count("assigned_resources"), 3);
  EXPECT_EQ(count("client_access"), 2);
  auto sql = storage::open_session(database_url());
  std::string hash, status, limit;
  long long tenant = tenant_db_id(t);
  *sql << "SELECT password_hash FROM client_users WHERE tenant_id = :t ORDER BY id LIMIT 1",
      soci::use(tenant), soci::into(hash);
  EXPECT_EQ(hash.rfind("$argon2id$", 0), 0u) << hash;
  *sql << "SELECT s.status, u.minutes_included_limit FROM subscriptions s JOIN usage_balances u "
          "ON u.subscription_id = s.id WHERE s.tenant_id = :t",
      soci::use(tenant), soci::into(status), soci::into(limit);
  EXPECT_EQ(status, "active");
  EXPECT_EQ(limit, "500.00");

  auto list = parse(pub("GET", "/api/v2/clients", t.key).body);
  ASSERT_EQ(list["clients"].Size(), 1u);
  EXPECT_EQ(str(list["clients"][0], "name"), "Acme");
  EXPECT_EQ(list["clients"][0]["users"].Size(), 2u);
  EXPECT_EQ(svc.log_contents().find("correct horse"), std::string::npos);
}

TEST_F(client_test, at_least_one_client_user_is_required) {
  auto r = pub("POST", "/api/v2/clients/create", t.key,
               R"({"client_users":[],"client_details":{"name":"A","email":"a@b.io"},
                   "client_asset_group":{"name":"g"}})");
  ASSERT_EQ(r.status, 400u);
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "message"), "Validation error");
  ASSERT_TRUE(d["errors"].HasMember("client_users"));
  EXPECT_NE(std::string{d["errors"]["client_users"][0].GetString()}.find(
                "At least one client user is required"),
            std::string::npos);
}

// Caps are checked before any work (26 users are refused before a password
// is hashed), and so are 51 price ids and 1,001 ids of one resource kind.
// Nothing is created; at the caps the request is accepted.
TEST_F(client_test, request_sizes_are_capped_before_any_work) {
  auto users = [](int n) {
    std::string out = "[";
    for (int i = 0; i < n; ++i)
      out += std::string{i ? "," : ""} + R"({"email":"u)" + std::to_string(i) +
             R"(@acme.io","password":"correct horse"})";
    return out + "]";
  };
  auto ids = [](const char* prefix, int n) {
    std::string out = "[";
    for (int i = 0; i < n; ++i)
      out += std::string{i ? "," : ""} + "\"" + prefix + std::to_string(i) + "\"";
    return out + "]";
  };
  auto with = [&](const std::string& user_list, const std::string& price_ids,
                  const std::string& assistants) {
    return R"({"client_users":)" + user_list +
           R"(,"client_details":{"name":"Acme","email":"billing@acme.io"},
      "client_asset_group":{"name":"Acme main"},
      "billing_provider":{"type":"processor","selected_product":{"product_id":"prod_basic","price_ids":)" +
           price_ids + R"(}},"assigned_resources":{"assistant":)" + assistants + "}}";
  };
  auto expect_refused = [&](const std::string& request, const std::string& field,
                            const std::string& message) {
    auto r = pub("POST", "/api/v2/clients/create", t.key, request);
    ASSERT_EQ(r.status, 400u) << r.body;
    auto d = parse(r.body);
    EXPECT_EQ(str(d, "message"), "Validation error");
    ASSERT_TRUE(d["errors"].HasMember(field.c_str())) << r.body;
    EXPECT_EQ(std::string{d["errors"][field.c_str()][0].GetString()}, message) << r.body;
  };
  expect_refused(with(users(26), ids("price_", 1), ids("asst_", 1)), "client_users",
                 "At most 25 client users per request.");
  expect_refused(with(users(1), ids("price_", 51), ids("asst_", 1)),
                 "billing_provider.selected_product.price_ids", "At most 50 price ids.");
  expect_refused(with(users(1), ids("price_", 1), ids("asst_", 1001)),
                 "assigned_resources.assistant", "At most 1000 ids.");
  EXPECT_EQ(count("clients"), 0);
  // At the cap it is accepted.
  auto ok = pub("POST", "/api/v2/clients/create", t.key,
                with(users(25), R"(["price_basic_m"])", ids("asst_", 1000)));
  ASSERT_EQ(ok.status, 201u) << ok.body;
  EXPECT_EQ(count("client_users"), 25);

  // Sent again, every e-mail is taken: refused before any password is
  // hashed. Four repeats would cost 100 argon2id hashes (about 6 s of the
  // service's CPU) if hashing came first.
  const auto cpu_seconds = [&] {
    return metric_value(op("GET", "/metrics").body, "process_cpu_seconds_total");
  };
  const double before = cpu_seconds();
  for (int i = 0; i < 4; ++i) {
    auto again = pub("POST", "/api/v2/clients/create", t.key,
                     with(users(25), R"(["price_basic_m"])", ids("asst_", 1000)));
    ASSERT_EQ(again.status, 400u) << again.body;
    auto d = parse(again.body);
    EXPECT_TRUE(d["errors"].HasMember("client_users[0].email")) << again.body;
    EXPECT_TRUE(d["errors"].HasMember("client_users[24].email")) << again.body;
  }
  EXPECT_LT(cpu_seconds() - before, 1.5);
  EXPECT_EQ(count("client_users"), 25);
}

TEST_F(client_test, validation_names_each_section) {
  auto r = pub(
      "POST", "/api/v2/clients/create", t.key,
      R"({"client_users":[{"email":"bad","password":"short"},{"email":"x@y.io","password":"long enough phrase"},
                                   {"email":"X@y.io","password":"long enough phrase"}],
                   "client_details":{"email":"nope"},
                   "client_asset_group":{"tenant_voice_provider_id":"garbage"},
                   "billing_provider":{"type":"stripe","selected_product":{"price_ids":[]}},
                   "client_access":{"assistant":"admin","robots":"view_only"},
                   "assigned_resources":{"campaign":["nope"],"widgets":["w"],"assistant":["a b"]}})");
  ASSERT_EQ(r.status, 400u) << r.body;
  auto d = parse(r.body);
  for (const char* f : {"client_users[0].email", "client_users[0].password",
                        "client_users[2].email", "client_details.name", "client_details.email",
                        "client_asset_group.name", "client_asset_group.tenant_voice_provider_id",
                        "billing_provider.type", "billing_provider.selected_product.product_id",
                        "billing_provider.selected_product.price_ids", "client_access.assistant",
                        "client_access.robots", "assigned_resources.campaign",
                        "assigned_resources.widgets", "assigned_resources.assistant"})
    EXPECT_TRUE(d["errors"].HasMember(f)) << f << " " << r.body;
}

TEST_F(client_test, a_failing_last_part_leaves_nothing_behind) {
  auto other = create_tenant();
  auto foreign = pub("POST", "/api/v2/voice-campaigns", other.key, R"({"name":"not yours"})");
  auto foreign_id = str(parse(foreign.body)["data"], "campaign_id");
  auto r = pub("POST", "/api/v2/clients/create", t.key, body("owner@acme.io", foreign_id));
  ASSERT_EQ(r.status, 400u) << r.body;
  EXPECT_TRUE(parse(r.body)["errors"].HasMember("assigned_resources.campaign"));
  for (const char* table : {"clients", "client_users", "account_configurations", "subscriptions",
                            "usage_balances", "assigned_resources"})
    EXPECT_EQ(count(table), 0) << table;
  auto unknown_price = body();
  unknown_price.replace(unknown_price.find("price_basic_m"), 13, "price_missing");
  auto p = pub("POST", "/api/v2/clients/create", t.key, unknown_price);
  ASSERT_EQ(p.status, 400u);
  EXPECT_TRUE(parse(p.body)["errors"].HasMember("billing_provider.selected_product.price_ids"));
  EXPECT_EQ(count("clients"), 0);
}

// Without page parameters the list is whole, as the contract answers it,
// read 1,000 clients at a time: 1,203 clients (groups of seven created at
// the same instant, so the batches' boundary falls inside a tie) come once
// each, newest first, with their users. With page or page_size, one page and
// its meta.
TEST_F(client_test, the_list_is_whole_without_a_page_and_paged_with_one) {
  auto sql = storage::open_session(database_url());
  long long tenant = tenant_db_id(t);
  *sql << "INSERT INTO clients (tenant_id, name, primary_email, created_at) "
          "SELECT :t, 'c' || i, 'c' || i || '@bulk.io', "
          "timestamptz '2026-01-01' + (i / 7) * interval '1 second' "
          "FROM generate_series(1, 1203) AS i",
      soci::use(tenant);
  *sql << "INSERT INTO client_users (tenant_id, client_id, email, password_hash) "
          "SELECT tenant_id, id, 'user-' || name || '@bulk.io', 'x' FROM clients "
          "WHERE tenant_id = :t AND name IN ('c1', 'c600', 'c1203')",
      soci::use(tenant);
  std::vector<long long> expected(1203);
  *sql << "SELECT id FROM clients WHERE tenant_id = :t ORDER BY created_at DESC, id DESC",
      soci::use(tenant), soci::into(expected);
  ASSERT_EQ(expected.size(), 1203u);

  auto whole = pub("GET", "/api/v2/clients", t.key);
  ASSERT_EQ(whole.status, 200u);
  auto d = parse(whole.body);
  EXPECT_FALSE(d.HasMember("meta"));
  const auto& clients = d["clients"];
  ASSERT_EQ(clients.Size(), 1203u);
  int with_users = 0;
  for (rapidjson::SizeType i = 0; i < clients.Size(); ++i) {
    EXPECT_EQ(domain::decode_global_id(domain::entity::client, str(clients[i], "id")), expected[i])
        << i;
    with_users += clients[i]["users"].Size() == 1 ? 1 : 0;
  }
  EXPECT_EQ(with_users, 3);

  auto page = parse(pub("GET", "/api/v2/clients?page=13&page_size=100", t.key).body);
  ASSERT_EQ(page["clients"].Size(), 3u);
  EXPECT_EQ(domain::decode_global_id(domain::entity::client, str(page["clients"][0], "id")),
            expected[1200]);
  EXPECT_EQ(page["meta"]["total"].GetInt64(), 1203);
  EXPECT_EQ(page["meta"]["page"].GetInt64(), 13);
  EXPECT_EQ(page["meta"]["page_size"].GetInt64(), 100);
  auto first = parse(pub("GET", "/api/v2/clients?page_size=2", t.key).body);
  ASSERT_EQ(first["clients"].Size(), 2u);
  EXPECT_EQ(first["meta"]["page"].GetInt64(), 1);
  EXPECT_EQ(pub("GET", "/api/v2/clients?page_size=101", t.key).status, 400u);
  EXPECT_EQ(pub("GET", "/api/v2/clients?page=0", t.key).status, 400u);
}

TEST_F(client_test, user_emails_are_unique_in_the_tenant) {
  ASSERT_EQ(pub("POST", "/api/v2/clients/create", t.key, body()).status, 201u);
  auto again = body("OWNER@acme.io");
  again.replace(again.find("ops@acme.io"), 11, "ops2@acme.io");
  auto r = pub("POST", "/api/v2/clients/create", t.key, again);
  ASSERT_EQ(r.status, 400u) << r.body;
  EXPECT_TRUE(parse(r.body)["errors"].HasMember("client_users[0].email"));
  EXPECT_EQ(count("clients"), 1);
}

// Every taken e-mail and every campaign that is not the tenant's is named,
// in the order sent, and each created user answers with its own id.
TEST_F(client_test, every_taken_email_and_foreign_campaign_is_named_and_users_get_their_ids) {
  auto first = pub("POST", "/api/v2/clients/create", t.key, body());
  ASSERT_EQ(first.status, 201u) << first.body;
  auto created = parse(first.body);
  auto sql = storage::open_session(database_url());
  for (const auto& u : created["data"]["users"].GetArray()) {
    auto id = domain::decode_global_id(domain::entity::client_user, str(u, "id"));
    ASSERT_TRUE(id);
    std::string email;
    *sql << "SELECT email FROM client_users WHERE id = :id", soci::use(*id), soci::into(email);
    EXPECT_EQ(email, str(u, "email"));
  }

  auto other = create_tenant();
  auto foreign = [&](const char* name) {
    auto c = pub("POST", "/api/v2/voice-campaigns", other.key,
                 std::string{R"({"name":")"} + name + R"("})");
    return str(parse(c.body)["data"], "campaign_id");
  };
  const auto foreign_a = foreign("a"), foreign_b = foreign("b");
  auto again = body("new1@acme.io", foreign_a + R"(",")" + campaign + R"(",")" + foreign_b);
  again.replace(again.find(R"("ops@acme.io")"), 13,
                R"("OPS@acme.io","password":"battery staple"},{"email":"new2@acme.io",)"
                R"("password":"battery staple"},{"email":"Owner@Acme.io")");
  auto r = pub("POST", "/api/v2/clients/create", t.key, again);
  ASSERT_EQ(r.status, 400u) << r.body;
  auto d = parse(r.body);
  const auto& errors = d["errors"];
  EXPECT_FALSE(errors.HasMember("client_users[0].email")) << r.body;
  EXPECT_TRUE(errors.HasMember("client_users[1].email")) << r.body;
  EXPECT_FALSE(errors.HasMember("client_users[2].email")) << r.body;
  EXPECT_TRUE(errors.HasMember("client_users[3].email")) << r.body;
  ASSERT_TRUE(errors.HasMember("assigned_resources.campaign")) << r.body;
  const auto& missing = errors["assigned_resources.campaign"];
  ASSERT_EQ(missing.Size(), 2u) << r.body;
  EXPECT_EQ(std::string{missing[0].GetString()}, "Campaign not found: " + foreign_a);
  EXPECT_EQ(std::string{missing[1].GetString()}, "Campaign not found: " + foreign_b);
  EXPECT_EQ(count("clients"), 1);
}

TEST_F(client_test, another_tenants_provider_or_product_is_not_usable) {
  auto other = create_tenant();
  auto vp = pub("POST", "/api/v2/voice-pod", other.key,
                R"({"voice_provider":"provider_d","provider_d_api_key":"k"})");
  auto foreign_provider = str(parse(vp.body)["data"], "voice_provider_id");
  auto b = body();
  b.replace(b.find(provider), provider.size(), foreign_provider);
  auto r = pub("POST", "/api/v2/clients/create", t.key, b);
  ASSERT_EQ(r.status, 400u);
  EXPECT_TRUE(parse(r.body)["errors"].HasMember("client_asset_group.tenant_voice_provider_id"));
  // The other tenant has no prod_basic.
  auto mine = body();
  mine.replace(mine.find(provider), provider.size(), foreign_provider);
  auto theirs = pub("POST", "/api/v2/clients/create", other.key, mine);
  ASSERT_EQ(theirs.status, 400u);
  EXPECT_TRUE(
      parse(theirs.body)["errors"].HasMember("billing_provider.selected_product.product_id"));
  // Clients are listed only to their tenant.
  EXPECT_EQ(parse(pub("GET", "/api/v2/clients", other.key).body)["clients"].Size(), 0u);
}

TEST_F(client_test, assigned_resources_are_read_and_replaced_whole) {
  auto created = parse(pub("POST", "/api/v2/clients/create", t.key, body()).body);
  auto group = str(created["data"], "asset_group_id");
  auto base = "/api/v2/client-account-configurations/" + group + "/resources";
  auto got = pub("GET", base, t.key);
  ASSERT_EQ(got.status, 200u) << got.body;
  auto g = parse(got.body);
  EXPECT_EQ(str(g, "status"), "success");
  EXPECT_EQ(str(g["data"], "asset_group_id"), group);
  const auto& set = g["data"]["assigned_resources"];
  EXPECT_EQ(set.MemberCount(), 8u);
  ASSERT_EQ(set["assistant"].Size(), 2u);
  EXPECT_STREQ(set["assistant"][1].GetString(), "asst_2");
  ASSERT_EQ(set["campaign"].Size(), 1u);
  EXPECT_EQ(std::string{set["campaign"][0].GetString()}, campaign);
  EXPECT_EQ(set["knowledge_base"].Size(), 0u);

  auto r = pub("POST", base + "/assign", t.key,
               R"({"assigned_resources":{"knowledge_base":["kb_1"],"campaign":[")" + campaign +
                   R"("]}})");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto d = parse(r.body);
  const auto& now = d["data"]["assigned_resources"];
  EXPECT_EQ(now["assistant"].Size(), 0u);
  ASSERT_EQ(now["knowledge_base"].Size(), 1u);
  EXPECT_EQ(now["campaign"].Size(), 1u);
  EXPECT_EQ(parse(pub("GET", base, t.key).body)["data"]["assigned_resources"]["assistant"].Size(),
            0u);
}

TEST_F(client_test, assign_rejects_empty_and_foreign_sets_and_keeps_the_old_one) {
  auto created = parse(pub("POST", "/api/v2/clients/create", t.key, body()).body);
  auto base = "/api/v2/client-account-configurations/" + str(created["data"], "asset_group_id") +
              "/resources";
  for (const char* empty : {R"({"assigned_resources":{}})",
                            R"({"assigned_resources":{"assistant":[],"campaign":[]}})"}) {
    auto r = pub("POST", base + "/assign", t.key, empty);
    ASSERT_EQ(r.status, 400u) << empty;
    auto d = parse(r.body);
    EXPECT_EQ(str(d, "message"), "Invalid data");
    EXPECT_STREQ(d["errors"][0].GetString(), "Assigned resources cannot be empty");
  }
  EXPECT_EQ(pub("POST", base + "/assign", t.key, "{}").status, 400u);
  auto other = create_tenant();
  auto foreign = pub("POST", "/api/v2/voice-campaigns", other.key, R"({"name":"x"})");
  auto r = pub("POST", base + "/assign", t.key,
               R"({"assigned_resources":{"campaign":[")" +
                   str(parse(foreign.body)["data"], "campaign_id") + R"("]}})");
  ASSERT_EQ(r.status, 400u) << r.body;
  EXPECT_TRUE(parse(r.body)["errors"].HasMember("assigned_resources.campaign"));
  EXPECT_EQ(parse(pub("GET", base, t.key).body)["data"]["assigned_resources"]["assistant"].Size(),
            2u);
}

TEST_F(client_test, a_missing_configuration_id_is_400) {
  auto get = pub("GET", "/api/v2/client-account-configurations//resources", t.key);
  EXPECT_EQ(get.status, 400u);
  EXPECT_EQ(str(parse(get.body), "message"), "Client account configuration ID is required");
  auto post = pub("POST", "/api/v2/client-account-configurations//resources/assign", t.key,
                  R"({"assigned_resources":{"assistant":["a"]}})");
  EXPECT_EQ(post.status, 400u);
}

TEST_F(client_test, unknown_or_foreign_configuration_is_not_found) {
  auto created = parse(pub("POST", "/api/v2/clients/create", t.key, body()).body);
  auto group = str(created["data"], "asset_group_id");
  auto other = create_tenant();
  for (const std::string& id :
       {group, std::string{"QXNzZXRHcm91cDo5OTk5OTk5"}, std::string{"zzz"}}) {
    auto key = id == group ? other.key : t.key;
    auto r = pub("GET", "/api/v2/client-account-configurations/" + id + "/resources", key);
    ASSERT_EQ(r.status, 404u) << id;
    auto d = parse(r.body);
    EXPECT_EQ(str(d, "message"), "Client account configuration not found");
    EXPECT_NE(std::string{d["errors"][0].GetString()}.find(id), std::string::npos);
    auto a = pub("POST", "/api/v2/client-account-configurations/" + id + "/resources/assign", key,
                 R"({"assigned_resources":{"assistant":["a"]}})");
    EXPECT_EQ(a.status, 404u) << id;
  }
}

TEST_F(client_test, detail_carries_every_section_with_the_spec_types) {
  auto created = parse(pub("POST", "/api/v2/clients/create", t.key, body()).body);
  auto client_id = str(created["data"], "client_id");
  // Real data behind each section: leads in the assigned campaign, a form
  // submission.
  ASSERT_EQ(pub("POST", "/api/v2/voice-campaigns/" + campaign + "/leads", t.key,
                R"({"phone_number":"+14155552671"})")
                .status,
            201u);
  auto form = parse(
      op("POST", "/admin/v1/tenants/" + t.id + "/client-forms", R"({"title":"Intake"})").body);
  ASSERT_EQ(op("POST", "/admin/v1/client-forms/" + str(form, "client_form_id") + "/submissions",
               R"({"client_id":")" + client_id + R"(","response_data":{"q":"a"}})")
                .status,
            201u);

  auto r = pub("GET", "/api/v2/clients/" + client_id, t.key);
  ASSERT_EQ(r.status, 200u) << r.body;
  auto d = parse(r.body);
  const auto& c = d["client"];
  EXPECT_EQ(str(c, "id"), client_id);
  EXPECT_EQ(str(c, "name"), "Acme");
  EXPECT_EQ(str(c, "primary_email"), "billing@acme.io");
  EXPECT_TRUE(c["created_at"].IsString());
  ASSERT_EQ(c["users"].Size(), 2u);
  EXPECT_TRUE(c["users"][0]["id"].IsString());
  EXPECT_TRUE(c["users"][0]["email"].IsString());

  // Beyond the contract: where its assigned resources are read, and its
  // access levels.
  ASSERT_EQ(d["account_configurations"].Size(), 1u);
  const auto& g = d["account_configurations"][0];
  EXPECT_EQ(str(g, "asset_group_id"), str(created["data"], "asset_group_id"));
  EXPECT_EQ(str(g, "name"), "Acme main");
  EXPECT_EQ(str(g, "tenant_voice_provider_id"), provider);
  auto assigned =
      pub("GET", "/api/v2/client-account-configurations/" + str(g, "asset_group_id") + "/resources",
          t.key);
  ASSERT_EQ(assigned.status, 200u) << assigned.body;
  EXPECT_EQ(parse(assigned.body)["data"]["assigned_resources"]["campaign"][0].GetString(),
            campaign);
  EXPECT_EQ(str(d["client_access"], "assistant"), "view_only");
  EXPECT_EQ(str(d["client_access"], "campaign"), "view_and_add");
  EXPECT_EQ(d["client_access"].MemberCount(), 2u);

  const auto& s = d["subscription"];
  ASSERT_TRUE(s.IsObject());
  for (const char* f : {"id", "processor_id", "status", "created_at"})
    EXPECT_TRUE(s[f].IsString()) << f;
  EXPECT_EQ(str(s, "status"), "active");
  EXPECT_EQ(str(s["product"], "id"), "prod_basic");
  EXPECT_EQ(str(s["product"], "name"), "Basic");
  EXPECT_EQ(str(s["product"], "pricing_model"), "flat");
  const auto& pd = s["pricing_details"];
  EXPECT_EQ(str(pd, "pricing_model"), "flat");
  ASSERT_EQ(pd["prices"].Size(), 1u);
  const auto& price = pd["prices"][0];
  for (const char* f : {"id", "processor_price_id", "billing_type", "currency", "interval"})
    EXPECT_TRUE(price[f].IsString()) << f;
  EXPECT_TRUE(price["unit_amount"].IsNumber());
  EXPECT_DOUBLE_EQ(price["unit_amount"].GetDouble(), 49.0);
  EXPECT_TRUE(price["active"].IsBool());
  EXPECT_EQ(str(pd, "currency"), "USD");
  EXPECT_EQ(str(pd, "interval"), "month");
  EXPECT_DOUBLE_EQ(pd["subscription_price"].GetDouble(), 49.0);
  EXPECT_EQ(str(pd, "subscription_price_formatted"), "USD 49.00");
  EXPECT_TRUE(pd["usage_price_tiers"].IsArray());
  EXPECT_DOUBLE_EQ(pd["min_minutes_included"].GetDouble(), 500.0);
  EXPECT_DOUBLE_EQ(pd["additional_minute_price"].GetDouble(), 0.02);
  EXPECT_TRUE(pd["additional_minute_price_formatted"].IsString());
  const auto& trial = s["trial"];
  EXPECT_EQ(str(trial, "trial_type"), "days_and_minutes");
  EXPECT_EQ(trial["trial_days"].GetInt(), 7);
  EXPECT_DOUBLE_EQ(trial["trial_minutes"].GetDouble(), 30.0);
  EXPECT_TRUE(trial["trial_start"].IsNumber());
  EXPECT_DOUBLE_EQ(trial["trial_minutes_assigned"].GetDouble(), 30.0);
  EXPECT_TRUE(trial["trial_minutes_used"].IsNumber());
  EXPECT_TRUE(trial["trial_end"].IsString());
  const auto& cycle = s["billing_cycle"];
  EXPECT_TRUE(cycle["current_period_start"].IsString());
  EXPECT_EQ(str(cycle, "current_period_start").size(), 19u); // billing style, no zone
  EXPECT_TRUE(cycle["current_period_end"].IsString());
  EXPECT_TRUE(cycle["billing_cycle_anchor"].IsNumber());
  EXPECT_TRUE(cycle["created"].IsNumber());
  EXPECT_GT(cycle["created"].GetInt64(), 1'700'000'000);

  const auto& u = d["usage"];
  EXPECT_TRUE(u["source"].IsString());
  EXPECT_TRUE(u["minutes_used"].IsNumber());
  EXPECT_TRUE(u["billing_period_start"].IsNumber());
  EXPECT_TRUE(u["billing_period_end"].IsNumber());
  EXPECT_GT(u["billing_period_end"].GetInt64(), u["billing_period_start"].GetInt64());
  EXPECT_TRUE(u["meter_id"].IsString());

  const auto& cs = d["campaigns"];
  EXPECT_EQ(cs["total_campaigns"].GetInt(), 1);
  EXPECT_EQ(cs["total_leads"].GetInt(), 1);
  EXPECT_TRUE(cs["total_calls"].IsNumber());
  ASSERT_EQ(cs["campaigns"].Size(), 1u);
  const auto& one = cs["campaigns"][0];
  EXPECT_EQ(str(one, "id"), campaign);
  EXPECT_EQ(str(one, "name"), "for client");
  EXPECT_EQ(str(one, "type"), "OUTBOUND");
  EXPECT_EQ(str(one, "status"), "DRAFT");
  EXPECT_FALSE(one["web_widget_enabled"].GetBool());
  EXPECT_EQ(one["leads_count"].GetInt(), 1);
  EXPECT_EQ(one["calls_count"].GetInt(), 0);
  // Nothing called, nothing evaluated (dialer_test counts real calls).
  const auto& m = one["success_metrics"];
  for (const char* counted : {"answered_leads", "evaluated_calls", "successful_calls"})
    EXPECT_EQ(m[counted].GetInt(), 0) << counted;
  EXPECT_DOUBLE_EQ(m["answer_rate"].GetDouble(), 0.0);
  EXPECT_DOUBLE_EQ(m["success_rate"].GetDouble(), 0.0);
  EXPECT_TRUE(one["success_evaluation_frequency"].IsArray());
  EXPECT_EQ(one["success_evaluation_frequency"].Size(), 0u);

  ASSERT_EQ(d["form_submissions"].Size(), 1u);
  const auto& fs = d["form_submissions"][0];
  for (const char* f : {"id", "form_id", "form_title", "submitted_at"})
    EXPECT_TRUE(fs[f].IsString()) << f;
  EXPECT_EQ(str(fs, "form_title"), "Intake");
  EXPECT_EQ(str(fs["response_data"], "q"), "a");
  EXPECT_FALSE(fs["is_test"].GetBool());
}

// The lead counts are kept in the transactions that write leads: each
// write shows in the next read.
TEST_F(client_test, detail_statistics_follow_each_lead_write_at_once) {
  auto r = pub("POST", "/api/v2/clients/create", t.key, body());
  ASSERT_EQ(r.status, 201u) << r.body;
  auto client_id = str(parse(r.body)["data"], "client_id");
  auto lead_counts = [&] {
    auto d = parse(pub("GET", "/api/v2/clients/" + client_id, t.key).body);
    const auto& cs = d["campaigns"];
    return std::pair{cs["total_leads"].GetInt(), cs["campaigns"][0]["leads_count"].GetInt()};
  };
  EXPECT_EQ(lead_counts(), std::pair(0, 0));
  for (int i = 1; i <= 3; ++i) {
    ASSERT_EQ(pub("POST", "/api/v2/voice-campaigns/" + campaign + "/leads", t.key,
                  R"({"phone_number":"+1415555267)" + std::to_string(i) + "\"}")
                  .status,
              201u);
    EXPECT_EQ(lead_counts(), std::pair(i, i));
  }
}

TEST_F(client_test, detail_of_a_client_without_subscription_and_the_errors) {
  auto r = pub("POST", "/api/v2/clients/create", t.key,
               R"({"client_users":[{"email":"solo@x.io","password":"plum orchard 1"}],
                   "client_details":{"name":"Solo","email":"solo@x.io"},
                   "client_asset_group":{"name":"g"}})");
  ASSERT_EQ(r.status, 201u) << r.body;
  auto id = str(parse(r.body)["data"], "client_id");
  auto d = parse(pub("GET", "/api/v2/clients/" + id, t.key).body);
  EXPECT_TRUE(d["subscription"].IsNull());
  EXPECT_TRUE(d["usage"].IsNull());
  EXPECT_EQ(d["campaigns"]["total_campaigns"].GetInt(), 0);
  EXPECT_EQ(d["form_submissions"].Size(), 0u);
  // The plain integer id reaches the same client.
  auto raw = std::to_string(*domain::decode_global_id(domain::entity::client, id));
  EXPECT_EQ(pub("GET", "/api/v2/clients/" + raw, t.key).status, 200u);

  auto other = create_tenant();
  auto foreign = pub("GET", "/api/v2/clients/" + id, other.key);
  EXPECT_EQ(foreign.status, 404u);
  EXPECT_EQ(str(parse(foreign.body), "message"), "Client not found");
  EXPECT_EQ(pub("GET", "/api/v2/clients/bogus", t.key).status, 404u);
  auto empty = pub("GET", "/api/v2/clients/", t.key);
  EXPECT_EQ(empty.status, 400u);
  EXPECT_EQ(str(parse(empty.body), "message"), "Client ID is required");
}

} // namespace
} // namespace vcs::test
