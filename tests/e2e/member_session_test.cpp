// People who sign in: an operator's set-up link for a tenant's first owner,
// invitations by role, sessions kept in PostgreSQL that end everywhere at
// once, the CSRF and Origin checks on every change made with a session, and
// the sign-in throttle.

#include "sse_reader.hpp"
#include "storage/database.hpp"

#include "service_fixture.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <map>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

namespace vcs::test {
namespace {

// What a browser holds after signing in.
struct browser_session {
  std::string cookie; // "__Host-vcs_session=<token>"
  std::string csrf;
};

class member_session_test : public service_test {
protected:
  void SetUp() override {
    // Every test signs in from 127.0.0.1: no test inherits the address's
    // failures.
    *sql << "DELETE FROM sign_in_addresses";
    *sql << "DELETE FROM sign_in_accounts";
  }
  // Nor do later tests and the contract test, which sign in from it too.
  void TearDown() override {
    *sql << "DELETE FROM sign_in_addresses";
    *sql << "DELETE FROM sign_in_accounts";
  }

  std::string origin() const { return "http://127.0.0.1:" + std::to_string(svc.public_port()); }
  std::string host() const { return "127.0.0.1:" + std::to_string(svc.public_port()); }

  // A request as the console page sends it: the session cookie, the page's
  // Origin and the session's CSRF token.
  http_response browser(const browser_session& s, const std::string& method,
                        const std::string& target, const std::string& body = {}) {
    return browser_with(method, target, body,
                        {{"Cookie", s.cookie},
                         {"Origin", origin()},
                         {"X-CSRF-Token", s.csrf},
                         {"Content-Type", "application/json"}});
  }
  http_response browser_with(const std::string& method, const std::string& target,
                             const std::string& body, header_list headers) {
    headers.emplace_back("Host", host());
    return public_client.request(method, target, body, headers);
  }

  static std::string token_of(const std::string& setup_url) {
    auto at = setup_url.find("#token=");
    EXPECT_NE(at, std::string::npos) << setup_url;
    return at == std::string::npos ? std::string{} : setup_url.substr(at + 7);
  }

  // The operator adds a member (an owner by default); its set-up token.
  std::string operator_member(const tenant_info& t, const std::string& email,
                              const std::string& role = "owner") {
    auto r = op("POST", "/admin/v1/tenants/" + t.id + "/members",
                R"({"email":")" + email + R"(","role":")" + role + R"("})");
    EXPECT_EQ(r.status, 201u) << r.body;
    return token_of(str(parse(r.body), "setup_url"));
  }

  std::optional<browser_session> session_of(const http_response& r) {
    if (r.status != 201)
      return std::nullopt;
    static const std::regex cookie{"(__Host-vcs_session=[0-9a-f]{64});"};
    std::smatch m;
    auto set_cookie = r.header("set-cookie");
    if (!std::regex_search(set_cookie, m, cookie))
      return std::nullopt;
    return browser_session{m[1], str(parse(r.body)["data"], "csrf_token")};
  }

  http_response use_link(const std::string& token, const std::string& password) {
    return browser_with("POST", "/api/v2/session/setup",
                        R"({"token":")" + token + R"(","password":")" + password + R"("})",
                        {{"Origin", origin()}, {"Content-Type", "application/json"}});
  }
  http_response sign_in_as(const std::string& email, const std::string& password) {
    return browser_with("POST", "/api/v2/session",
                        R"({"email":")" + email + R"(","password":")" + password + R"("})",
                        {{"Origin", origin()}, {"Content-Type", "application/json"}});
  }
  browser_session set_up(const std::string& token, const std::string& password) {
    auto r = use_link(token, password);
    auto s = session_of(r);
    EXPECT_TRUE(s) << r.status << " " << r.body;
    return s.value_or(browser_session{});
  }
  browser_session signed_in(const std::string& email, const std::string& password) {
    auto r = sign_in_as(email, password);
    auto s = session_of(r);
    EXPECT_TRUE(s) << r.status << " " << r.body;
    return s.value_or(browser_session{});
  }
  // A member invited by `by`; its set-up token.
  std::string invite(const browser_session& by, const std::string& email, const std::string& role) {
    auto r = browser(by, "POST", "/api/v2/members",
                     R"({"email":")" + email + R"(","role":")" + role + R"("})");
    EXPECT_EQ(r.status, 201u) << r.body;
    return token_of(str(parse(r.body), "setup_url"));
  }
  unsigned campaigns_status(const browser_session& s) {
    return browser(s, "GET", "/api/v2/voice-campaigns").status;
  }
  static std::string unique(const std::string& name) {
    static int n = 0;
    return name + std::to_string(++n) + "-" + std::to_string(::getpid()) + "@example.test";
  }

  std::unique_ptr<soci::session> sql = storage::open_session(database_url());
};

TEST_F(member_session_test, an_owner_uses_its_link_once_signs_in_and_works_through_the_api) {
  auto t = create_tenant();
  const auto email = unique("Owner");
  auto token = operator_member(t, email);
  ASSERT_EQ(token.size(), 64u);

  auto r = use_link(token, "correct horse battery");
  ASSERT_EQ(r.status, 201u) << r.body;
  const auto cookie = r.header("set-cookie");
  for (const char* attribute :
       {"__Host-vcs_session=", "; Path=/", "; Secure", "; HttpOnly", "; SameSite=Lax"})
    EXPECT_NE(cookie.find(attribute), std::string::npos) << attribute << " in " << cookie;
  EXPECT_EQ(cookie.find("Domain"), std::string::npos);
  EXPECT_EQ(r.header("cache-control"), "no-store");
  auto owner = *session_of(r);

  auto me = browser(owner, "GET", "/api/v2/session");
  ASSERT_EQ(me.status, 200u) << me.body;
  auto doc = parse(me.body);
  EXPECT_EQ(str(doc["data"]["member"], "email"), email);
  EXPECT_EQ(str(doc["data"]["member"], "role"), "owner");
  EXPECT_EQ(str(doc["data"]["member"], "status"), "Active");
  EXPECT_EQ(str(doc["data"], "tenant_id"), t.id);
  EXPECT_EQ(str(doc["data"], "csrf_token"), owner.csrf);
  EXPECT_EQ(doc["data"]["permissions"].Size(), 14u);

  // The session reaches the public API as the tenant's keys do.
  auto made = browser(owner, "POST", "/api/v2/voice-campaigns", R"({"name":"from the console"})");
  ASSERT_EQ(made.status, 201u) << made.body;
  auto listed = pub("GET", "/api/v2/voice-campaigns", t.key);
  EXPECT_NE(listed.body.find("from the console"), std::string::npos) << listed.body;
  auto key = browser(owner, "POST", "/api/v2/api-keys", R"({"name":"made by a person"})");
  EXPECT_EQ(key.status, 201u) << key.body;

  // The link works once.
  auto again = use_link(token, "another password 7");
  EXPECT_EQ(again.status, 404u) << again.body;
  EXPECT_EQ(str(parse(again.body), "message"), "This set-up link is unknown, used or expired");

  // E-mails compare without case.
  auto second = sign_in_as(email.substr(0, 1) + "WNER" + email.substr(5), "correct horse battery");
  EXPECT_EQ(second.status, 201u) << second.body;
  auto members = op("GET", "/admin/v1/tenants/" + t.id + "/members");
  ASSERT_EQ(members.status, 200u) << members.body;
  EXPECT_FALSE(parse(members.body)["members"][0]["last_sign_in_at"].IsNull());

  // A key is not a session.
  auto with_key = pub("GET", "/api/v2/session", t.key);
  EXPECT_EQ(with_key.status, 401u) << with_key.body;
  EXPECT_EQ(str(parse(with_key.body), "message"),
            "Sign in first: this route is for a signed-in member");
}

TEST_F(member_session_test, an_expired_link_and_a_short_password_are_refused) {
  auto t = create_tenant();
  auto token = operator_member(t, unique("late"));
  auto short_password = use_link(token, "short");
  EXPECT_EQ(short_password.status, 400u) << short_password.body;
  const long long tenant_id = tenant_db_id(t); // soci binds by reference: a named value
  *sql << "UPDATE member_links SET expires_at = now() - interval '1 second' WHERE member_id IN "
          "(SELECT id FROM members WHERE tenant_id = :t)",
      soci::use(tenant_id);
  auto late = use_link(token, "long enough password");
  EXPECT_EQ(late.status, 404u) << late.body;
}

TEST_F(member_session_test, a_new_link_replaces_the_members_earlier_one) {
  auto t = create_tenant();
  auto first = operator_member(t, unique("relinked"));
  auto members = parse(op("GET", "/admin/v1/tenants/" + t.id + "/members").body);
  auto again = op("POST", "/admin/v1/tenants/" + t.id + "/members/" +
                              str(members["members"][0], "id") + "/setup-link");
  ASSERT_EQ(again.status, 201u) << again.body;
  EXPECT_EQ(use_link(first, "long enough password").status, 404u);
  EXPECT_EQ(use_link(token_of(str(parse(again.body), "setup_url")), "long enough password").status,
            201u);
}

TEST_F(member_session_test, a_change_without_the_page_origin_or_the_csrf_token_is_refused) {
  auto t = create_tenant();
  auto owner = set_up(operator_member(t, unique("csrf")), "correct horse battery");
  const std::string body = R"({"name":"forged"})";
  const std::string target = "/api/v2/voice-campaigns";
  auto refused = [&](header_list headers, const std::string& message) {
    headers.emplace_back("Content-Type", "application/json");
    auto r = browser_with("POST", target, body, headers);
    EXPECT_EQ(r.status, 403u) << r.body;
    EXPECT_EQ(str(parse(r.body), "message"), message);
  };
  const std::string wrong_origin = "This request's Origin is not this service's";
  const std::string wrong_token = "Missing or wrong X-CSRF-Token";
  refused({{"Cookie", owner.cookie}, {"X-CSRF-Token", owner.csrf}}, wrong_origin);
  refused({{"Cookie", owner.cookie}, {"X-CSRF-Token", owner.csrf}, {"Origin", "http://evil.test"}},
          wrong_origin);
  refused({{"Cookie", owner.cookie},
           {"X-CSRF-Token", owner.csrf},
           {"Origin", "http://127.0.0.1:" + std::to_string(svc.public_port() + 1)}},
          wrong_origin);
  refused({{"Cookie", owner.cookie}, {"Origin", origin()}}, wrong_token);
  refused({{"Cookie", owner.cookie}, {"Origin", origin()}, {"X-CSRF-Token", std::string(64, '0')}},
          wrong_token);
  // A bulk body is read only after the session and its checks passed.
  auto campaign = browser(owner, "POST", target, R"({"name":"bulk"})");
  ASSERT_EQ(campaign.status, 201u) << campaign.body;
  const auto bulk = target + "/" + str(parse(campaign.body)["data"], "campaign_id") + "/leads/bulk";
  auto unchecked = browser_with(
      "POST", bulk, numbered_leads(3, 5550100),
      {{"Cookie", owner.cookie}, {"Origin", origin()}, {"Content-Type", "application/json"}});
  EXPECT_EQ(unchecked.status, 403u) << unchecked.body;
  auto added = browser(owner, "POST", bulk, numbered_leads(3, 5550100));
  EXPECT_EQ(added.status, 200u) << added.body;

  auto signed_out_too = browser(owner, "DELETE", "/api/v2/session");
  // DELETE is a change as well: the checks held before it, so it went on.
  EXPECT_EQ(signed_out_too.status, 200u);
  EXPECT_EQ(pub("GET", target, t.key).body.find("forged"), std::string::npos);

  // Signing in from another site's page is refused before any password is
  // checked.
  auto elsewhere = public_client.request(
      "POST", "/api/v2/session", R"({"email":"x@example.test","password":"whatever it is"})",
      {{"Origin", "https://evil.test"}, {"Host", host()}, {"Content-Type", "application/json"}});
  EXPECT_EQ(elsewhere.status, 403u) << elsewhere.body;

  // A session that does not exist is told to sign in, and its cookie ended.
  auto unknown = browser({"__Host-vcs_session=" + std::string(64, 'a'), owner.csrf}, "GET", target);
  EXPECT_EQ(unknown.status, 401u) << unknown.body;
  EXPECT_NE(unknown.header("set-cookie").find("Max-Age=0"), std::string::npos);
  // A key needs no CSRF token: no browser sends it by itself.
  EXPECT_EQ(pub("POST", target, t.key, R"({"name":"by key"})").status, 201u);
}

TEST_F(member_session_test, roles_decide_what_a_member_may_do_and_no_one_gives_more_than_it_has) {
  auto t = create_tenant();
  auto owner = set_up(operator_member(t, unique("boss")), "correct horse battery");
  auto admin = set_up(invite(owner, unique("admin"), "admin"), "admin password 1");
  auto viewer = set_up(invite(owner, unique("viewer"), "viewer"), "viewer password 1");

  EXPECT_EQ(campaigns_status(viewer), 200u);
  auto write = browser(viewer, "POST", "/api/v2/voice-campaigns", R"({"name":"no"})");
  EXPECT_EQ(write.status, 403u) << write.body;
  EXPECT_EQ(str(parse(write.body), "message"),
            "The viewer role lacks the permission campaigns:write");
  EXPECT_EQ(browser(admin, "POST", "/api/v2/voice-campaigns", R"({"name":"yes"})").status, 201u);
  auto admin_invites =
      browser(admin, "POST", "/api/v2/members", R"({"email":"x@example.test","role":"viewer"})");
  EXPECT_EQ(admin_invites.status, 403u) << admin_invites.body;
  EXPECT_EQ(str(parse(admin_invites.body), "message"),
            "The admin role lacks the permission members:write");
  EXPECT_EQ(browser(admin, "GET", "/api/v2/members").status, 200u);

  // A key may manage members only up to what it holds itself.
  auto narrow = pub("POST", "/api/v2/api-keys", t.key,
                    R"({"name":"people","permissions":["members:read","members:write"]})");
  ASSERT_EQ(narrow.status, 201u) << narrow.body;
  const auto narrow_key = str(parse(narrow.body)["data"], "key");
  auto stronger = pub("POST", "/api/v2/members", narrow_key,
                      R"({"email":")" + unique("more") + R"(","role":"viewer"})");
  EXPECT_EQ(stronger.status, 403u) << stronger.body;
  EXPECT_EQ(str(parse(stronger.body), "message"),
            "A member cannot be given more than its maker holds: it lacks campaigns:read");
  auto only = browser(owner, "POST", "/api/v2/voice-campaigns", R"({"name":"only"})");
  ASSERT_EQ(only.status, 201u) << only.body;
  auto campaign_key = pub("POST", "/api/v2/api-keys", t.key,
                          R"({"name":"one campaign","campaign_ids":[")" +
                              str(parse(only.body)["data"], "campaign_id") + R"("]})");
  ASSERT_EQ(campaign_key.status, 201u) << campaign_key.body;
  auto every_campaign = pub("POST", "/api/v2/members", str(parse(campaign_key.body)["data"], "key"),
                            R"({"email":")" + unique("wide") + R"(","role":"viewer"})");
  EXPECT_EQ(every_campaign.status, 403u) << every_campaign.body;

  // An e-mail belongs to one member; a role is one of three.
  auto members = parse(browser(owner, "GET", "/api/v2/members").body);
  ASSERT_EQ(members["data"].Size(), 3u);
  const auto viewer_email = str(members["data"][2], "email");
  const auto viewer_id = str(members["data"][2], "id");
  EXPECT_EQ(browser(owner, "POST", "/api/v2/members",
                    R"({"email":")" + viewer_email + R"(","role":"viewer"})")
                .status,
            409u);
  EXPECT_EQ(
      browser(owner, "POST", "/api/v2/members", R"({"email":"a@b.test","role":"king"})").status,
      400u);
  EXPECT_EQ(browser(owner, "POST", "/api/v2/members", R"({"email":"not an email","role":"viewer"})")
                .status,
            400u);

  // A new role holds from the member's next request.
  auto promoted = browser(owner, "PATCH", "/api/v2/members/" + viewer_id, R"({"role":"admin"})");
  ASSERT_EQ(promoted.status, 200u) << promoted.body;
  EXPECT_EQ(browser(viewer, "POST", "/api/v2/voice-campaigns", R"({"name":"now"})").status, 201u);

  // The tenant keeps an owner who can sign in.
  const auto owner_id = str(members["data"][0], "id");
  auto last = browser(owner, "PATCH", "/api/v2/members/" + owner_id, R"({"role":"admin"})");
  EXPECT_EQ(last.status, 409u) << last.body;
  EXPECT_EQ(browser(owner, "DELETE", "/api/v2/members/" + owner_id).status, 409u);
  auto second_owner = set_up(invite(owner, unique("heir"), "owner"), "heir password 1");
  EXPECT_EQ(browser(second_owner, "DELETE", "/api/v2/members/" + owner_id).status, 200u);
  EXPECT_EQ(campaigns_status(owner), 401u) << "a removed member's session ended";

  // Another tenant's member does not exist for this one.
  auto other = create_tenant();
  auto stranger = set_up(operator_member(other, unique("stranger")), "a strangers password 9");
  EXPECT_EQ(browser(stranger, "DELETE", "/api/v2/members/" + viewer_id).status, 404u);
  EXPECT_EQ(browser(stranger, "GET", "/api/v2/members").body.find(viewer_email), std::string::npos);
}

TEST_F(member_session_test, sessions_end_on_sign_out_password_change_expiry_and_deactivation) {
  auto t = create_tenant();
  const auto email = unique("leaver");
  auto first = set_up(operator_member(t, email), "first password 1");
  auto second = signed_in(email, "first password 1");
  auto third = signed_in(email, "first password 1");

  ASSERT_EQ(browser(first, "DELETE", "/api/v2/session").status, 200u);
  EXPECT_EQ(campaigns_status(first), 401u);
  EXPECT_EQ(campaigns_status(second), 200u) << "signing out ends only that session";

  auto wrong =
      browser(second, "POST", "/api/v2/session/password",
              R"({"current_password":"not it at all","new_password":"second password 2"})");
  EXPECT_EQ(wrong.status, 403u) << wrong.body;
  auto changed =
      browser(second, "POST", "/api/v2/session/password",
              R"({"current_password":"first password 1","new_password":"second password 2"})");
  ASSERT_EQ(changed.status, 200u) << changed.body;
  EXPECT_EQ(campaigns_status(second), 401u);
  EXPECT_EQ(campaigns_status(third), 401u) << "a new password ends every session";
  EXPECT_EQ(sign_in_as(email, "first password 1").status, 401u);
  auto fourth = signed_in(email, "second password 2");
  EXPECT_EQ(campaigns_status(fourth), 200u);

  // Idle past its timeout, or past its lifetime.
  auto idle = signed_in(email, "second password 2");
  *sql << "UPDATE member_sessions SET last_seen_at = now() - interval '61 minutes' WHERE "
          "token_hash = (SELECT token_hash FROM member_sessions WHERE csrf_token = :c)",
      soci::use(idle.csrf);
  EXPECT_EQ(campaigns_status(idle), 401u);
  auto old = signed_in(email, "second password 2");
  *sql << "UPDATE member_sessions SET expires_at = now() WHERE csrf_token = :c",
      soci::use(old.csrf);
  EXPECT_EQ(campaigns_status(old), 401u);
  EXPECT_EQ(campaigns_status(fourth), 200u);

  // A deactivated tenant's members are signed out, and stay out when it is
  // active again.
  ASSERT_EQ(op("PATCH", "/admin/v1/tenants/" + t.id, R"({"active":false})").status, 200u);
  EXPECT_EQ(campaigns_status(fourth), 401u);
  auto inactive = sign_in_as(email, "second password 2");
  EXPECT_EQ(inactive.status, 403u) << inactive.body;
  ASSERT_EQ(op("PATCH", "/admin/v1/tenants/" + t.id, R"({"active":true})").status, 200u);
  EXPECT_EQ(campaigns_status(fourth), 401u);

  // A member who lost its password gets a new link from the operator.
  auto members = parse(op("GET", "/admin/v1/tenants/" + t.id + "/members").body);
  const auto id = str(members["members"][0], "id");
  auto link = op("POST", "/admin/v1/tenants/" + t.id + "/members/" + id + "/setup-link");
  ASSERT_EQ(link.status, 201u) << link.body;
  auto back = set_up(token_of(str(parse(link.body), "setup_url")), "third password 3");
  EXPECT_EQ(campaigns_status(back), 200u);
}

TEST_F(member_session_test, failed_sign_ins_are_throttled_per_account_and_per_address) {
  auto t = create_tenant();
  const auto email = unique("guessed");
  set_up(operator_member(t, email), "right password 1");
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(sign_in_as(email, "wrong guess " + std::to_string(i)).status, 401u);
  // Locked: even the right password waits, and no hashing is spent on it.
  auto locked = sign_in_as(email, "right password 1");
  ASSERT_EQ(locked.status, 429u) << locked.body;
  auto wait = std::stoi(locked.header("retry-after"));
  EXPECT_GT(wait, 0);
  EXPECT_LE(wait, 30);

  // The lock runs out (made so here).
  *sql << "UPDATE sign_in_accounts SET locked_until = NULL WHERE locked_until IS NOT NULL";
  EXPECT_EQ(sign_in_as(email, "right password 1").status, 201u) << "the lock ended";

  // Guessing across many accounts from one address: at most 20 failures in
  // 15 minutes, then every sign-in from it waits, a known account's too.
  for (int i = 0; i < 20 - 6; ++i)
    EXPECT_EQ(sign_in_as(unique("nobody"), "any password").status, 401u);
  auto address = sign_in_as(email, "right password 1");
  ASSERT_EQ(address.status, 429u) << address.body;
  EXPECT_GT(std::stoi(address.header("retry-after")), 60);
}

// An e-mail that names no member locks as a member's does: the answers do
// not tell a known account from an unknown one.
TEST_F(member_session_test, an_unknown_email_locks_as_a_known_one_does) {
  auto t = create_tenant();
  const auto known = unique("known");
  set_up(operator_member(t, known), "right password 1");
  const auto unknown = unique("unknown");
  for (const auto& email : {known, unknown}) {
    for (int i = 0; i < 6; ++i) {
      auto r = sign_in_as(email, "wrong guess " + std::to_string(i));
      EXPECT_EQ(r.status, 401u) << email << " " << i;
      EXPECT_EQ(str(parse(r.body), "message"), "Wrong e-mail or password");
    }
    auto locked = sign_in_as(email, "any password 1");
    EXPECT_EQ(locked.status, 429u) << email << ": " << locked.body;
    EXPECT_FALSE(locked.header("retry-after").empty());
  }
}

// An e-mail is unique within a tenant only: another tenant cannot take an
// address first, and a person who is a member of two tenants signs in to
// the one its password opens, or names the tenant.
TEST_F(member_session_test, an_email_may_be_a_member_of_several_tenants) {
  auto first = create_tenant();
  auto second = create_tenant();
  const auto email = unique("twice");
  auto in_first = set_up(operator_member(first, email), "first tenant password 1");
  // The second tenant's invitation is not refused, so it learns nothing.
  auto in_second = set_up(operator_member(second, email), "second tenant password 2");
  auto tenant_of = [&](const browser_session& s) {
    auto me = browser(s, "GET", "/api/v2/session");
    EXPECT_EQ(me.status, 200u) << me.body;
    return str(parse(me.body)["data"], "tenant_id");
  };
  EXPECT_EQ(tenant_of(in_first), first.id);
  EXPECT_EQ(tenant_of(in_second), second.id);
  EXPECT_EQ(tenant_of(signed_in(email, "first tenant password 1")), first.id);
  EXPECT_EQ(tenant_of(signed_in(email, "second tenant password 2")), second.id);

  // Naming the tenant tries its member only.
  auto named = [&](const tenant_info& t, const std::string& password) {
    return browser_with("POST", "/api/v2/session",
                        R"({"email":")" + email + R"(","tenant_id":")" + t.id +
                            R"(","password":")" + password + R"("})",
                        {{"Origin", origin()}, {"Content-Type", "application/json"}});
  };
  auto right = named(second, "second tenant password 2");
  ASSERT_EQ(right.status, 201u) << right.body;
  EXPECT_EQ(str(parse(right.body)["data"], "tenant_id"), second.id);
  auto crossed = named(second, "first tenant password 1");
  EXPECT_EQ(crossed.status, 401u) << crossed.body;
  EXPECT_EQ(str(parse(crossed.body), "message"), "Wrong e-mail or password");
  auto unknown_tenant = browser_with(
      "POST", "/api/v2/session",
      R"({"email":")" + email + R"(","tenant_id":"nonsense","password":"first tenant password 1"})",
      {{"Origin", origin()}, {"Content-Type", "application/json"}});
  EXPECT_EQ(unknown_tenant.status, 401u) << unknown_tenant.body;

  // Within one tenant the address is still one member's.
  auto again = browser(in_first, "POST", "/api/v2/members",
                       R"({"email":")" + email + R"(","role":"viewer"})");
  EXPECT_EQ(again.status, 409u) << again.body;
  EXPECT_EQ(str(parse(again.body), "message"),
            "This e-mail already belongs to a member of this tenant");
}

// Each attempt is counted before its password is hashed, under a row lock:
// of 40 concurrent wrong passwords for one account only the 6 the throttle
// allows are verified; of 40 for 40 accounts from one address, 20.
TEST_F(member_session_test, concurrent_guesses_are_counted_before_they_are_verified) {
  auto burst = [&](const std::vector<std::string>& emails) {
    std::vector<unsigned> statuses(emails.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < emails.size(); ++i)
      threads.emplace_back([&, i] {
        http_client client{"127.0.0.1", svc.public_port()};
        statuses[i] =
            client
                .request(
                    "POST", "/api/v2/session",
                    R"({"email":")" + emails[i] + R"(","password":"wrong guess"})",
                    {{"Host", host()}, {"Origin", origin()}, {"Content-Type", "application/json"}})
                .status;
      });
    for (auto& th : threads)
      th.join();
    std::map<unsigned, int> counts;
    for (auto s : statuses)
      ++counts[s];
    return counts;
  };
  const auto one = unique("target");
  auto same = burst(std::vector<std::string>(40, one));
  EXPECT_EQ(same[401], 6) << "verified";
  EXPECT_EQ(same[429], 34) << "refused before any hashing";
  *sql << "DELETE FROM sign_in_addresses";
  std::vector<std::string> many;
  for (int i = 0; i < 40; ++i)
    many.push_back(unique("spray"));
  auto spread = burst(many);
  EXPECT_EQ(spread[401], 20);
  EXPECT_EQ(spread[429], 20);
}

// A page of another site can open this service's stream URL with a
// member's cookie (window.open, an img): only the service's own pages, as
// the browser's Sec-Fetch-Site or the session's CSRF token shows, hold one,
// and one session holds at most three.
TEST_F(member_session_test, a_cookie_stream_needs_the_services_own_page_and_is_capped) {
  auto t = create_tenant();
  auto owner = set_up(operator_member(t, unique("streams")), "correct horse battery");
  auto open = [&](const header_list& more) {
    header_list headers{{"Cookie", owner.cookie}, {"Host", host()}};
    headers.insert(headers.end(), more.begin(), more.end());
    return std::make_unique<sse_reader>(svc.public_port(), "/api/v2/events/stream", headers);
  };
  for (const header_list& foreign :
       {header_list{}, header_list{{"Sec-Fetch-Site", "cross-site"}},
        header_list{{"Sec-Fetch-Site", "same-site"}}, header_list{{"X-CSRF-Token", "0"}}}) {
    auto refused = open(foreign);
    EXPECT_EQ(refused->status(), 403u) << refused->rest();
    EXPECT_NE(refused->rest().find("this service's own pages"), std::string::npos)
        << refused->rest();
  }
  std::vector<std::unique_ptr<sse_reader>> held;
  held.push_back(open({{"Sec-Fetch-Site", "same-origin"}}));
  held.push_back(open({{"X-CSRF-Token", owner.csrf}}));
  held.push_back(open({{"Sec-Fetch-Site", "same-origin"}}));
  for (const auto& s : held)
    EXPECT_EQ(s->status(), 200u) << s->rest();
  auto fourth = open({{"Sec-Fetch-Site", "same-origin"}});
  EXPECT_EQ(fourth->status(), 429u);
  EXPECT_NE(fourth->rest().find("A session may hold at most 3 event streams"), std::string::npos)
      << fourth->rest();
  // The tenant's key still has places of its own.
  auto keyed = std::make_unique<sse_reader>(svc.public_port(), "/api/v2/events/stream",
                                            header_list{{"Authorization", "Bearer " + t.key}});
  EXPECT_EQ(keyed->status(), 200u) << keyed->rest();
}

} // namespace
} // namespace vcs::test
