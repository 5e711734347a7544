// POST /api/v2/voice-pod: validation, encryption at rest, secrecy.

#include "service_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

namespace vcs::test {
namespace {

class voice_provider_test : public service_test {};

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

} // namespace
} // namespace vcs::test
