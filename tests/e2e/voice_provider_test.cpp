// /api/v2/voice-pod: create (validation, encryption at rest, secrecy), and
// the list, read (credentials masked), update (rotation) and delete the
// service adds; a configuration in use is kept; keys held to some campaigns
// change none.

#include "domain/global_id.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

namespace vcs::test {
namespace {

class voice_provider_test : public service_test {
protected:
  std::string registered(const std::string& key, const std::string& body) {
    auto r = pub("POST", "/api/v2/voice-pod", key, body);
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "voice_provider_id");
  }
  rapidjson::Document read(const std::string& key, const std::string& id) {
    auto r = pub("GET", "/api/v2/voice-pod/" + id, key);
    EXPECT_EQ(r.status, 200u) << r.body;
    return parse(r.body);
  }
  // The error messages of a refused PATCH's field.
  std::string refused_field(const std::string& key, const std::string& id, const std::string& body,
                            const char* field) {
    auto r = pub("PATCH", "/api/v2/voice-pod/" + id, key, body);
    EXPECT_EQ(r.status, 400u) << body << ": " << r.body;
    auto d = parse(r.body);
    EXPECT_FALSE(d["success"].GetBool()) << r.body;
    if (!d.HasMember("errors") || !d["errors"].HasMember(field))
      return "(no error for " + std::string{field} + ": " + r.body + ")";
    return d["errors"][field][0].GetString();
  }
};

TEST_F(voice_provider_test, creates_each_provider_kind_without_returning_credentials) {
  auto t = create_tenant();
  const char* bodies[] = {
      R"({"voice_provider":"provider_a","provider_a_private_key":"priv-SECRET-a1","provider_a_public_key":"pub-a1","provider_a_organization_id":"org-1","concurrency_limit":5})",
      R"({"voice_provider":"provider_b","provider_b_api_key":"SECRET-b2","provider_b_organization_name":"B Org"})",
      R"({"voice_provider":"provider_c","provider_c_api_key":"SECRET-c3","provider_c_webhook_id":"wh-1","provider_c_webhook_secret_key":"SECRET-c3-wh"})",
      R"({"voice_provider":"provider_d","provider_d_api_key":"SECRET-d4"})",
  };
  const char* kinds[] = {"provider_a", "provider_b", "provider_c", "provider_d"};
  for (int i = 0; i < 4; ++i) {
    auto r = pub("POST", "/api/v2/voice-pod", t.key, bodies[i]);
    ASSERT_EQ(r.status, 201u) << r.body;
    auto d = parse(r.body);
    EXPECT_TRUE(d["success"].GetBool());
    EXPECT_FALSE(str(d, "message").empty());
    EXPECT_FALSE(str(d["data"], "voice_provider_id").empty());
    EXPECT_EQ(str(d["data"], "voice_provider"), kinds[i]);
    EXPECT_EQ(d["data"]["concurrency_limit"].GetInt(), i == 0 ? 5 : 10);
    EXPECT_EQ(r.body.find("SECRET"), std::string::npos) << r.body;
  }
  EXPECT_EQ(svc.log_contents().find("SECRET"), std::string::npos);
}

// Credentials go into outbound request headers: CR, LF and every other
// control character are refused where they are written, naming the field.
TEST_F(voice_provider_test, credentials_with_control_characters_are_refused) {
  auto t = create_tenant();
  // (U+0000 is refused earlier, as text no request may carry.)
  for (const char* value :
       {R"(SECRET\r\nX-Injected: 1)", R"(SECRET\n)", R"(a\tb)", R"(a\u001bb)", R"(a\u007fb)"}) {
    auto r = pub("POST", "/api/v2/voice-pod", t.key,
                 std::string{R"({"voice_provider":"provider_b","provider_b_api_key":")"} + value +
                     R"(","provider_b_organization_name":"B Org"})");
    ASSERT_EQ(r.status, 400u) << value << ": " << r.body;
    auto d = parse(r.body);
    ASSERT_TRUE(d["errors"].HasMember("provider_b_api_key")) << r.body;
    EXPECT_NE(
        std::string{d["errors"]["provider_b_api_key"][0].GetString()}.find("control characters"),
        std::string::npos)
        << r.body;
  }
  // Printable text, spaces included, is still taken.
  auto ok = pub("POST", "/api/v2/voice-pod", t.key,
                R"({"voice_provider":"provider_b","provider_b_api_key":"key with spaces ~"})");
  EXPECT_EQ(ok.status, 201u) << ok.body;
}

TEST_F(voice_provider_test, credentials_are_encrypted_at_rest) {
  auto t = create_tenant();
  auto r = pub("POST", "/api/v2/voice-pod", t.key,
               R"({"voice_provider":"provider_b","provider_b_api_key":"plain-text-marker-123"})");
  ASSERT_EQ(r.status, 201u);
  auto sql = storage::open_session(database_url());
  std::string cipher, nonce;
  *sql << "SELECT encode(credentials_ciphertext, 'escape'), encode(credentials_nonce, 'hex') "
          "FROM voice_providers ORDER BY id DESC LIMIT 1",
      soci::into(cipher), soci::into(nonce);
  EXPECT_EQ(cipher.find("plain-text-marker-123"), std::string::npos);
  EXPECT_EQ(nonce.size(), 48u); // 24-byte XChaCha20 nonce
}

TEST_F(voice_provider_test, validation_errors_name_each_field) {
  auto t = create_tenant();
  auto missing = pub("POST", "/api/v2/voice-pod", t.key, "{}");
  ASSERT_EQ(missing.status, 400u);
  auto m = parse(missing.body);
  EXPECT_FALSE(m["success"].GetBool());
  EXPECT_EQ(str(m, "message"), "Validation error");
  EXPECT_TRUE(m["errors"].HasMember("voice_provider"));

  auto unknown =
      parse(pub("POST", "/api/v2/voice-pod", t.key, R"({"voice_provider":"provider_z"})").body);
  EXPECT_TRUE(unknown["errors"].HasMember("voice_provider"));

  auto r = pub(
      "POST", "/api/v2/voice-pod", t.key,
      R"({"voice_provider":"provider_a","provider_a_public_key":"x","provider_b_api_key":"y","concurrency_limit":0})");
  ASSERT_EQ(r.status, 400u);
  auto d = parse(r.body);
  for (const char* field : {"provider_a_private_key", "provider_a_organization_id",
                            "provider_b_api_key", "concurrency_limit"})
    EXPECT_TRUE(d["errors"].HasMember(field)) << field << " " << r.body;
  EXPECT_FALSE(d["errors"].HasMember("provider_a_public_key"));

  for (const char* limit : {"1001", "\"5\"", "2.5", "-3"}) {
    auto bad = parse(
        pub("POST", "/api/v2/voice-pod", t.key,
            std::string{
                R"({"voice_provider":"provider_d","provider_d_api_key":"k","concurrency_limit":)"} +
                limit + "}")
            .body);
    EXPECT_TRUE(bad["errors"].HasMember("concurrency_limit")) << limit;
  }
  auto webhook = parse(
      pub("POST", "/api/v2/voice-pod", t.key,
          R"({"voice_provider":"provider_c","provider_c_api_key":"k","provider_c_webhook_id":"w"})")
          .body);
  EXPECT_TRUE(webhook["errors"].HasMember("provider_c_webhook_secret_key"));
}

TEST_F(voice_provider_test, configurations_are_listed_read_masked_rotated_and_deleted) {
  auto t = create_tenant();
  auto a = registered(t.key, R"({"voice_provider":"provider_a",)"
                             R"("provider_a_private_key":"priv-SECRET-0123456789abcdef",)"
                             R"("provider_a_public_key":"pub-SECRET-1",)"
                             R"("provider_a_organization_id":"org-1","concurrency_limit":4})");
  auto c = registered(t.key, R"({"voice_provider":"provider_c","provider_c_api_key":"sk_SECRET_c",)"
                             R"("provider_c_webhook_id":"wh-1",)"
                             R"("provider_c_webhook_secret_key":"wsec_SECRET_c"})");

  auto list = pub("GET", "/api/v2/voice-pod?page=1&page_size=1", t.key);
  ASSERT_EQ(list.status, 200u) << list.body;
  auto listed = parse(list.body);
  EXPECT_EQ(listed["meta"]["total"].GetInt(), 2);
  ASSERT_EQ(listed["data"].Size(), 1u);
  EXPECT_EQ(str(listed["data"][0], "voice_provider_id"), a) << "oldest first";
  EXPECT_EQ(list.body.find("SECRET"), std::string::npos) << list.body;

  // Secrets show their last four characters only when long; the rest is
  // in clear.
  auto view = read(t.key, a);
  const auto& creds = view["data"]["credentials"];
  EXPECT_EQ(str(creds, "provider_a_private_key"), "****cdef");
  EXPECT_EQ(str(creds, "provider_a_public_key"), "****");
  EXPECT_EQ(str(creds, "provider_a_organization_id"), "org-1");
  EXPECT_FALSE(creds.HasMember("provider_a_organization_name"));
  EXPECT_EQ(view["data"]["concurrency_limit"].GetInt(), 4);
  EXPECT_EQ(view["data"]["campaigns_in_use"].GetInt(), 0);
  EXPECT_FALSE(str(view["data"], "created_at").empty());
  auto cv = read(t.key, c);
  EXPECT_EQ(str(cv["data"]["credentials"], "provider_c_webhook_id"), "wh-1");
  EXPECT_EQ(str(cv["data"]["credentials"], "provider_c_webhook_secret_key"), "****");

  // Rotation: a given value replaces, an absent one stays, null removes
  // an optional one.
  auto rotated = pub("PATCH", "/api/v2/voice-pod/" + a, t.key,
                     R"({"provider_a_private_key":"new-SECRET-private-key-9999",)"
                     R"("provider_a_organization_name":"Acme","concurrency_limit":3})");
  ASSERT_EQ(rotated.status, 200u) << rotated.body;
  EXPECT_EQ(rotated.body.find("SECRET"), std::string::npos) << rotated.body;
  auto r = parse(rotated.body);
  EXPECT_EQ(str(r["data"]["credentials"], "provider_a_private_key"), "****9999");
  EXPECT_EQ(str(r["data"]["credentials"], "provider_a_public_key"), "****");
  EXPECT_EQ(str(r["data"]["credentials"], "provider_a_organization_name"), "Acme");
  EXPECT_EQ(r["data"]["concurrency_limit"].GetInt(), 3);
  auto cleared =
      pub("PATCH", "/api/v2/voice-pod/" + a, t.key, R"({"provider_a_organization_name":null})");
  ASSERT_EQ(cleared.status, 200u) << cleared.body;
  auto kept = read(t.key, a);
  EXPECT_FALSE(kept["data"]["credentials"].HasMember("provider_a_organization_name"));
  EXPECT_EQ(str(kept["data"]["credentials"], "provider_a_private_key"), "****9999");
  EXPECT_EQ(kept["data"]["concurrency_limit"].GetInt(), 3);

  // Refusals name their field and change nothing.
  EXPECT_NE(refused_field(t.key, a, R"({"provider_a_private_key":null})", "provider_a_private_key")
                .find("not removed"),
            std::string::npos);
  EXPECT_NE(refused_field(t.key, a, R"({"provider_b_api_key":"x"})", "provider_b_api_key")
                .find("Not used by provider_a"),
            std::string::npos);
  EXPECT_NE(refused_field(t.key, a, R"({"voice_provider":"provider_b"})", "voice_provider")
                .find("Cannot be changed"),
            std::string::npos);
  refused_field(t.key, a, R"({"concurrency_limit":0})", "concurrency_limit");
  refused_field(t.key, a, R"({"provider_a_public_key":"a\r\nb"})", "provider_a_public_key");
  refused_field(t.key, c, R"({"provider_c_webhook_secret_key":null})",
                "provider_c_webhook_secret_key");
  EXPECT_EQ(read(t.key, a)["data"]["concurrency_limit"].GetInt(), 3);
  auto unhooked = pub("PATCH", "/api/v2/voice-pod/" + c, t.key,
                      R"({"provider_c_webhook_id":null,"provider_c_webhook_secret_key":null})");
  ASSERT_EQ(unhooked.status, 200u) << unhooked.body;
  EXPECT_FALSE(parse(unhooked.body)["data"]["credentials"].HasMember("provider_c_webhook_id"));
  EXPECT_EQ(svc.log_contents().find("SECRET"), std::string::npos);

  auto gone = pub("DELETE", "/api/v2/voice-pod/" + a, t.key);
  ASSERT_EQ(gone.status, 200u) << gone.body;
  EXPECT_EQ(pub("GET", "/api/v2/voice-pod/" + a, t.key).status, 404u);
  EXPECT_EQ(pub("DELETE", "/api/v2/voice-pod/" + a, t.key).status, 404u);
  EXPECT_EQ(pub("PATCH", "/api/v2/voice-pod/" + a, t.key, R"({"concurrency_limit":2})").status,
            404u);
  EXPECT_EQ(pub("GET", "/api/v2/voice-pod/not-an-id", t.key).status, 404u);
  EXPECT_EQ(parse(pub("GET", "/api/v2/voice-pod", t.key).body)["meta"]["total"].GetInt(), 1);
}

TEST_F(voice_provider_test, a_configuration_in_use_is_kept_until_its_campaigns_and_calls_end) {
  auto t = create_tenant();
  auto p = registered(t.key, R"({"voice_provider":"provider_d","provider_d_api_key":"k"})");
  auto made = pub("POST", "/api/v2/voice-campaigns", t.key,
                  R"({"name":"uses it","tenant_voice_provider_id":")" + p + "\"}");
  ASSERT_EQ(made.status, 201u) << made.body;
  const auto campaign = str(parse(made.body)["data"], "campaign_id");
  EXPECT_EQ(read(t.key, p)["data"]["campaigns_in_use"].GetInt(), 1);
  auto refused = pub("DELETE", "/api/v2/voice-pod/" + p, t.key);
  ASSERT_EQ(refused.status, 409u) << refused.body;
  EXPECT_NE(str(parse(refused.body), "message").find("a campaign that has not ended"),
            std::string::npos)
      << refused.body;

  // Ended, the campaign lets go; a call still waiting for its end report
  // holds on.
  ASSERT_EQ(pub("POST", "/api/v2/voice-campaigns/" + campaign + "/leads", t.key,
                R"({"phone_number":"+14155550123"})")
                .status,
            201u);
  ASSERT_EQ(pub("PATCH", "/api/v2/voice-campaigns/" + campaign + "/status", t.key,
                R"({"status":"ENDED"})")
                .status,
            200u);
  EXPECT_EQ(read(t.key, p)["data"]["campaigns_in_use"].GetInt(), 0);
  const auto provider_id = *domain::decode_global_id(domain::entity::voice_provider, p);
  // Named values: soci binds by reference until the statement runs.
  const long long campaign_id = *domain::decode_global_id(domain::entity::campaign, campaign);
  const long long provider = provider_id;
  auto sql = storage::open_session(database_url());
  *sql << "INSERT INTO calls (tenant_id, campaign_id, lead_id, phone_number, voice_provider_id, "
          "attempt, status, node_id) SELECT tenant_id, campaign_id, id, phone_number, :p, 1, "
          "'IN_PROGRESS', 'test' FROM leads WHERE campaign_id = :c",
      soci::use(provider), soci::use(campaign_id);
  auto waiting = pub("DELETE", "/api/v2/voice-pod/" + p, t.key);
  ASSERT_EQ(waiting.status, 409u) << waiting.body;
  EXPECT_NE(str(parse(waiting.body), "message").find("has not ended yet"), std::string::npos);
  *sql << "UPDATE calls SET status = 'COMPLETED', ended_at = now() WHERE voice_provider_id = :p",
      soci::use(provider);
  ASSERT_EQ(pub("DELETE", "/api/v2/voice-pod/" + p, t.key).status, 200u);
  // The ended campaign and its call stay, without the reference.
  EXPECT_EQ(pub("GET", "/api/v2/voice-campaigns/" + campaign, t.key).status, 200u);
  long long calls = 0, referencing = 0;
  *sql << "SELECT count(*), count(voice_provider_id) FROM calls WHERE campaign_id = :c",
      soci::use(campaign_id), soci::into(calls), soci::into(referencing);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(referencing, 0);
  // A campaign can no longer name it.
  auto late = pub("POST", "/api/v2/voice-campaigns", t.key,
                  R"({"name":"late","tenant_voice_provider_id":")" + p + "\"}");
  EXPECT_EQ(late.status, 404u) << late.body;
}

TEST_F(voice_provider_test, a_key_held_to_some_campaigns_reads_configurations_but_changes_none) {
  auto t = create_tenant();
  auto p = registered(t.key, R"({"voice_provider":"provider_b","provider_b_api_key":"k"})");
  auto c = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"one"})");
  ASSERT_EQ(c.status, 201u) << c.body;
  auto made = pub("POST", "/api/v2/api-keys", t.key,
                  R"({"name":"held","campaign_ids":[")" +
                      str(parse(c.body)["data"], "campaign_id") + R"("]})");
  ASSERT_EQ(made.status, 201u) << made.body;
  const auto held = str(parse(made.body)["data"], "key");
  EXPECT_EQ(pub("GET", "/api/v2/voice-pod/" + p, held).status, 200u);
  EXPECT_EQ(pub("GET", "/api/v2/voice-pod", held).status, 200u);
  EXPECT_EQ(pub("PATCH", "/api/v2/voice-pod/" + p, held, R"({"provider_b_api_key":"mine"})").status,
            403u);
  EXPECT_EQ(pub("DELETE", "/api/v2/voice-pod/" + p, held).status, 403u);
  EXPECT_EQ(str(read(t.key, p)["data"]["credentials"], "provider_b_api_key"), "****");
}

TEST_F(voice_provider_test, a_tenant_holds_at_most_a_hundred_configurations) {
  auto t = create_tenant();
  const std::string body = R"({"voice_provider":"provider_d","provider_d_api_key":"k"})";
  std::string first;
  for (int i = 0; i < 100; ++i) {
    auto id = registered(t.key, body);
    if (i == 0)
      first = id;
  }
  auto over = pub("POST", "/api/v2/voice-pod", t.key, body);
  ASSERT_EQ(over.status, 400u) << over.body;
  EXPECT_NE(str(parse(over.body), "message").find("at most 100"), std::string::npos);
  ASSERT_EQ(pub("DELETE", "/api/v2/voice-pod/" + first, t.key).status, 200u);
  EXPECT_EQ(pub("POST", "/api/v2/voice-pod", t.key, body).status, 201u);
}

} // namespace
} // namespace vcs::test
