// Client users in the portal: signing in with the tenant, e-mail and
// password their client was made with; sessions that end on sign-out,
// disabling and a password change; the tenant's links and access levels;
// every access level against every campaign route, called directly with a
// portal session; campaigns not assigned do not exist; a payment due shuts
// everything but the portal's session, and its payment opens it again.

#include "domain/client_access.hpp"
#include "storage/database.hpp"

#include "billing_fixture.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

namespace vcs::test {
namespace {

using std::chrono::hours;

struct portal_session {
  std::string cookie; // "__Host-vcs_portal=<token>"
  std::string csrf;
};

class portal_test : public billing_fixture {
protected:
  void SetUp() override {
    billing_fixture::SetUp();
    *sql << "DELETE FROM sign_in_addresses";
    draft = campaigns["DRAFT"];
    auto r = pub("POST", "/api/v2/voice-campaigns", t.key, R"({"name":"not the client's"})");
    ASSERT_EQ(r.status, 201u) << r.body;
    unassigned = str(parse(r.body)["data"], "campaign_id");
  }
  void TearDown() override { *sql << "DELETE FROM sign_in_addresses"; }

  std::string origin() const { return "http://127.0.0.1:" + std::to_string(svc.public_port()); }

  http_response browser(const std::string& cookie, const std::string& csrf,
                        const std::string& method, const std::string& target,
                        const std::string& body = {}) {
    header_list headers{{"Host", "127.0.0.1:" + std::to_string(svc.public_port())},
                        {"Origin", origin()},
                        {"Content-Type", "application/json"}};
    if (!cookie.empty())
      headers.emplace_back("Cookie", cookie);
    if (!csrf.empty())
      headers.emplace_back("X-CSRF-Token", csrf);
    return public_client.request(method, target, body, headers);
  }
  http_response as(const portal_session& s, const std::string& method, const std::string& target,
                   const std::string& body = {}) {
    return browser(s.cookie, s.csrf, method, target, body);
  }

  http_response sign_in_raw(const std::string& email, const std::string& password,
                            const std::string& tenant = "") {
    return browser("", "", "POST", "/api/v2/portal/session",
                   R"({"tenant_id":")" + (tenant.empty() ? t.id : tenant) + R"(","email":")" +
                       email + R"(","password":")" + password + R"("})");
  }
  portal_session sign_in(const std::string& password = "plum orchard 1") {
    auto r = sign_in_raw("rules@acme.io", password);
    EXPECT_EQ(r.status, 201u) << r.body;
    static const std::regex cookie{"(__Host-vcs_portal=[0-9a-f]{64});"};
    std::smatch m;
    auto set_cookie = r.header("set-cookie");
    EXPECT_TRUE(std::regex_search(set_cookie, m, cookie)) << set_cookie;
    EXPECT_NE(set_cookie.find("HttpOnly"), std::string::npos);
    EXPECT_NE(set_cookie.find("SameSite=Lax"), std::string::npos);
    return {m.size() > 1 ? std::string{m[1]} : std::string{},
            r.status == 201 ? str(parse(r.body)["data"], "csrf_token") : ""};
  }

  std::string user_id() {
    auto r = pub("GET", "/api/v2/clients/" + client_gid + "/users", t.key);
    EXPECT_EQ(r.status, 200u) << r.body;
    return str(parse(r.body)["data"][0], "id");
  }
  http_response set_access(const std::string& level) {
    return pub("PUT", "/api/v2/clients/" + client_gid + "/access", t.key,
               R"({"client_access":{"campaign":")" + level + R"(","assistant":"view_only"}})");
  }

  std::string draft, unassigned;
  std::unique_ptr<soci::session> sql = storage::open_session(database_url());
};

TEST_F(portal_test, a_client_user_signs_in_and_its_sessions_end_everywhere) {
  EXPECT_EQ(sign_in_raw("rules@acme.io", "wrong password").status, 401u);
  EXPECT_EQ(sign_in_raw("nobody@acme.io", "plum orchard 1").status, 401u);
  auto other = create_tenant();
  EXPECT_EQ(sign_in_raw("rules@acme.io", "plum orchard 1", other.id).status, 401u)
      << "an e-mail is the client user's only within its tenant";

  auto s = sign_in();
  auto me = as(s, "GET", "/api/v2/portal/session");
  ASSERT_EQ(me.status, 200u) << me.body;
  auto doc = parse(me.body);
  const auto& d = doc["data"];
  EXPECT_EQ(str(d["client"], "name"), "Rules");
  EXPECT_EQ(str(d["user"], "email"), "rules@acme.io");
  EXPECT_EQ(str(d["access"], "campaign"), "view_only") << "no level given: view_only";
  EXPECT_EQ(str(d, "subscription_status"), "active");
  EXPECT_FALSE(d["portal_blocked"].GetBool());
  // The tenant sees the sign-in.
  auto users = parse(pub("GET", "/api/v2/clients/" + client_gid + "/users", t.key).body);
  EXPECT_EQ(str(users["data"][0], "status"), "Active");
  EXPECT_TRUE(users["data"][0]["last_sign_in_at"].IsString());

  // The portal's cookie never opens the console, nor the console's the
  // portal.
  EXPECT_EQ(as(s, "GET", "/api/v2/session").status, 401u);
  EXPECT_EQ(
      browser("__Host-vcs_session=" + std::string(64, 'a'), "", "GET", "/api/v2/portal/session")
          .status,
      401u);
  // Changes need the session's CSRF token.
  EXPECT_EQ(browser(s.cookie, "", "DELETE", "/api/v2/portal/session").status, 403u);

  // Disabled: its session ends at once and it cannot sign in.
  auto disabled = pub("PATCH", "/api/v2/clients/" + client_gid + "/users/" + user_id(), t.key,
                      R"({"status":"Disabled"})");
  ASSERT_EQ(disabled.status, 200u) << disabled.body;
  EXPECT_EQ(str(parse(disabled.body)["data"], "status"), "Disabled");
  EXPECT_EQ(as(s, "GET", "/api/v2/portal/session").status, 401u);
  EXPECT_EQ(sign_in_raw("rules@acme.io", "plum orchard 1").status, 401u);
  ASSERT_EQ(pub("PATCH", "/api/v2/clients/" + client_gid + "/users/" + user_id(), t.key,
                R"({"status":"Active"})")
                .status,
            200u);

  // A link from the tenant sets a new password; the old one stops working.
  auto kept = sign_in();
  auto link =
      pub("POST", "/api/v2/clients/" + client_gid + "/users/" + user_id() + "/setup-link", t.key);
  ASSERT_EQ(link.status, 201u) << link.body;
  auto url = str(parse(link.body)["data"], "setup_url");
  ASSERT_NE(url.find("/portal/setup#token="), std::string::npos) << url;
  auto token = url.substr(url.find("#token=") + 7);
  auto set = browser("", "", "POST", "/api/v2/portal/session/setup",
                     R"({"token":")" + token + R"(","password":"a new portal password"})");
  ASSERT_EQ(set.status, 201u) << set.body;
  EXPECT_EQ(as(kept, "GET", "/api/v2/portal/session").status, 401u) << "other sessions end";
  EXPECT_EQ(browser("", "", "POST", "/api/v2/portal/session/setup",
                    R"({"token":")" + token + R"(","password":"a third password"})")
                .status,
            404u)
      << "a link works once";
  EXPECT_EQ(sign_in_raw("rules@acme.io", "plum orchard 1").status, 401u);

  // The user changes its own password: every session ends.
  auto mine = sign_in("a new portal password");
  auto changed =
      as(mine, "POST", "/api/v2/portal/session/password",
         R"({"current_password":"a new portal password","new_password":"plum orchard 2"})");
  ASSERT_EQ(changed.status, 200u) << changed.body;
  EXPECT_EQ(as(mine, "GET", "/api/v2/portal/session").status, 401u);
  auto last = sign_in("plum orchard 2");
  ASSERT_EQ(as(last, "DELETE", "/api/v2/portal/session").status, 200u);
  EXPECT_EQ(as(last, "GET", "/api/v2/portal/session").status, 401u);

  // A deactivated tenant's client users are signed out, and stay out when
  // it is active again.
  auto before = sign_in("plum orchard 2");
  ASSERT_EQ(op("PATCH", "/admin/v1/tenants/" + t.id, R"({"active":false})").status, 200u);
  EXPECT_EQ(as(before, "GET", "/api/v2/portal/session").status, 401u);
  EXPECT_EQ(sign_in_raw("rules@acme.io", "plum orchard 2").status, 403u);
  ASSERT_EQ(op("PATCH", "/admin/v1/tenants/" + t.id, R"({"active":true})").status, 200u);
  EXPECT_EQ(as(before, "GET", "/api/v2/portal/session").status, 401u);
}

// What each route needs; `level` the least campaign access level.
struct campaign_route {
  const char* method;
  std::string path; // after /api/v2/voice-campaigns/<campaign>
  std::string body;
  domain::access_level level;
};

TEST_F(portal_test, every_level_allows_exactly_its_routes_on_assigned_campaigns) {
  using level = domain::access_level;
  const std::vector<campaign_route> routes{
      {"GET", "", "", level::view_only},
      {"GET", "/calls", "", level::view_only},
      {"GET", "/leads/list", "", level::view_only},
      {"GET", "/leads/imports", "", level::view_only},
      {"POST", "/leads", R"({"phone_number":"+14155550190"})", level::view_and_add},
      {"POST", "/leads/bulk", numbered_leads(2, 5550300), level::view_and_add},
      {"PATCH", "/leads/update/bulk", R"([{"phone_number":"+14155550190","first_name":"Ada"}])",
       level::full_access},
      {"DELETE", "/leads/remove/bulk", R"([{"phone_number":"+14155550190"}])", level::full_access},
      {"PATCH", "", R"({"name":"renamed by the client"})", level::full_access},
      {"PATCH", "/status", R"({"status":"SCHEDULED"})", level::full_access},
  };
  for (auto held : {level::no_access, level::view_only, level::view_and_add, level::full_access}) {
    const auto name = std::string{domain::to_string(held)};
    ASSERT_EQ(set_access(name).status, 200u);
    // A session reads its client's level on every request.
    auto s = sign_in();
    for (const auto& r : routes) {
      auto answer = as(s, r.method, "/api/v2/voice-campaigns/" + draft + r.path, r.body);
      SCOPED_TRACE(name + " " + r.method + " " + r.path + ": " + answer.body);
      if (held == level::no_access)
        EXPECT_EQ(answer.status, 404u) << "hidden";
      else if (held < r.level)
        EXPECT_EQ(answer.status, 403u);
      else
        EXPECT_TRUE(answer.status >= 200 && answer.status < 300);
      // A campaign not assigned to the client does not exist for it.
      EXPECT_EQ(as(s, r.method, "/api/v2/voice-campaigns/" + unassigned + r.path, r.body).status,
                404u);
    }
    auto list = as(s, "GET", "/api/v2/voice-campaigns");
    if (held == level::no_access) {
      EXPECT_EQ(list.status, 403u) << list.body;
    } else {
      ASSERT_EQ(list.status, 200u) << list.body;
      auto d = parse(list.body);
      EXPECT_EQ(d["data"].Size(), 4u) << "only the four assigned";
      for (const auto& c : d["data"].GetArray())
        EXPECT_NE(str(c, "id"), unassigned);
    }
    // The next level adds the same lead again.
    pub("DELETE", "/api/v2/voice-campaigns/" + draft + "/leads/remove/bulk", t.key,
        R"([{"phone_number":"+14155550190"}])");
    // Routes that are not a campaign's, or that make one, are not the
    // client's at any level.
    for (auto [method, path] : std::vector<std::pair<const char*, std::string>>{
             {"POST", "/api/v2/voice-campaigns"},
             {"POST", "/api/v2/voice-campaigns/" + draft + "/webhook-test"},
             {"GET", "/api/v2/clients"},
             {"GET", "/api/v2/external-billing/subscriptions"},
             {"GET", "/api/v2/webhook-deliveries"},
             {"GET", "/api/v2/events"},
             {"GET", "/api/v2/api-keys"},
             {"POST", "/api/v2/do-not-call"},
             {"PATCH", "/v1/api/voice-campaigns/" + draft + "/lead/update"}}) {
      auto answer = as(s, method, path, R"({"name":"x","phone_number":"+14155550191"})");
      EXPECT_EQ(answer.status, 403u) << name << " " << method << " " << path << answer.body;
    }
  }
}

TEST_F(portal_test, failed_sign_ins_lock_the_client_user_as_a_members_would) {
  for (int i = 0; i < 5; ++i)
    ASSERT_EQ(sign_in_raw("rules@acme.io", "wrong password").status, 401u) << i;
  // The sixth failure locks the account; then even the right password waits.
  EXPECT_EQ(sign_in_raw("rules@acme.io", "wrong password").status, 401u);
  auto locked = sign_in_raw("rules@acme.io", "plum orchard 1");
  EXPECT_EQ(locked.status, 429u) << locked.body;
  EXPECT_FALSE(locked.header("retry-after").empty());
  // Once the lock has run out (set so here), the right password signs in.
  *sql << "UPDATE sign_in_accounts SET locked_until = NULL, failures = 0 "
          "WHERE locked_until IS NOT NULL";
  EXPECT_EQ(sign_in_raw("rules@acme.io", "plum orchard 1").status, 201u);
}

TEST_F(portal_test, another_tenants_campaign_does_not_exist_for_a_client_user) {
  ASSERT_EQ(set_access("full_access").status, 200u);
  auto other = create_tenant();
  auto theirs = pub("POST", "/api/v2/voice-campaigns", other.key, R"({"name":"theirs"})");
  ASSERT_EQ(theirs.status, 201u);
  auto s = sign_in();
  auto r =
      as(s, "GET", "/api/v2/voice-campaigns/" + str(parse(theirs.body)["data"], "campaign_id"));
  EXPECT_EQ(r.status, 404u) << r.body;
  EXPECT_EQ(str(parse(r.body), "message"), "Campaign not found");
}

TEST_F(portal_test, a_payment_due_shuts_all_but_the_session_and_its_payment_opens_it_again) {
  ASSERT_EQ(set_access("view_and_add").status, 200u);
  auto s = sign_in();
  ASSERT_EQ(as(s, "GET", "/api/v2/voice-campaigns/" + draft).status, 200u);
  auto request = issue("SUBSCRIPTION", from_now(hours(24 * 30)));
  ASSERT_EQ(set_payment(request, "OVERDUE").status, 200u);

  auto shut = as(s, "GET", "/api/v2/voice-campaigns/" + draft);
  EXPECT_EQ(shut.status, 403u);
  EXPECT_NE(str(parse(shut.body), "message").find("access returns when the payment is recorded"),
            std::string::npos)
      << shut.body;
  EXPECT_EQ(as(s, "POST", "/api/v2/voice-campaigns/" + draft + "/leads",
               R"({"phone_number":"+14155550192"})")
                .status,
            403u);
  auto me = as(s, "GET", "/api/v2/portal/session");
  ASSERT_EQ(me.status, 200u) << me.body;
  EXPECT_EQ(str(parse(me.body)["data"], "subscription_status"), "past_due");
  EXPECT_TRUE(parse(me.body)["data"]["portal_blocked"].GetBool());

  ASSERT_EQ(set_payment(request, "PAID").status, 200u);
  EXPECT_EQ(as(s, "GET", "/api/v2/voice-campaigns/" + draft).status, 200u)
      << "open again from the next request";
}

TEST_F(portal_test, the_billing_page_says_what_is_due_and_stays_open_while_a_payment_is_due) {
  auto s = sign_in();
  auto banner = [&] {
    auto r = as(s, "GET", "/api/v2/portal/billing");
    EXPECT_EQ(r.status, 200u) << r.body;
    auto d = parse(r.body);
    return d["data"]["banner"].IsNull() ? std::string{"none"} : str(d["data"]["banner"], "kind");
  };
  auto billing = parse(as(s, "GET", "/api/v2/portal/billing").body);
  const auto& first = billing["data"];
  EXPECT_EQ(str(first["subscription"], "status"), "active");
  EXPECT_EQ(str(first["subscription"]["product"], "name"), "Rules plan");
  EXPECT_EQ(str(first["usage"], "minutes_included_limit"), "100.00");
  EXPECT_EQ(first["payment_requests"].Size(), 0u);
  EXPECT_EQ(banner(), "none");

  auto request = issue("SUBSCRIPTION", from_now(hours(24 * 30)));
  EXPECT_EQ(banner(), "outstanding_balance");
  ASSERT_EQ(set_payment(request, "OVERDUE").status, 200u);
  EXPECT_EQ(banner(), "payment_overdue");
  auto listed = as(s, "GET", "/api/v2/portal/payment-requests?page_size=1");
  ASSERT_EQ(listed.status, 200u) << listed.body;
  EXPECT_EQ(str(parse(listed.body)["data"][0], "status"), "OVERDUE");
  EXPECT_EQ(as(s, "GET", "/api/v2/portal/resources").status, 403u);
  EXPECT_EQ(as(s, "GET", "/api/v2/portal/form-submissions").status, 403u);

  ASSERT_EQ(set_payment(request, "PAID").status, 200u);
  EXPECT_EQ(banner(), "none");
  EXPECT_EQ(as(s, "GET", "/api/v2/portal/resources").status, 200u);
}

TEST_F(portal_test, resources_and_form_submissions_are_the_clients_own) {
  ASSERT_EQ(pub("PUT", "/api/v2/clients/" + client_gid + "/access", t.key,
                R"({"client_access":{"campaign":"view_only","phone_number":"no_access"}})")
                .status,
            200u);
  auto form = parse(
      op("POST", "/admin/v1/tenants/" + t.id + "/client-forms", R"({"title":"Intake"})").body);
  const auto form_id = str(form, "client_form_id");
  auto other = pub("POST", "/api/v2/clients/create", t.key,
                   R"({"client_users":[{"email":"other@acme.io","password":"plum orchard 1"}],
                       "client_details":{"name":"Other","email":"other@acme.io"},
                       "client_asset_group":{"name":"g"},
                       "assigned_resources":{"campaign":[")" +
                       unassigned + R"("],"phone_number":["pn_other"]}})");
  ASSERT_EQ(other.status, 201u) << other.body;
  for (const auto& [client, answer] : std::vector<std::pair<std::string, std::string>>{
           {client_gid, "mine 1"},
           {client_gid, "mine 2"},
           {str(parse(other.body)["data"], "client_id"), "theirs"}})
    ASSERT_EQ(op("POST", "/admin/v1/client-forms/" + form_id + "/submissions",
                 R"({"client_id":")" + client + R"(","response_data":{"q":")" + answer + R"("}})")
                  .status,
              201u);
  auto s = sign_in();

  auto page = as(s, "GET", "/api/v2/portal/form-submissions?page_size=1");
  ASSERT_EQ(page.status, 200u) << page.body;
  auto d = parse(page.body);
  EXPECT_EQ(d["meta"]["total"].GetInt64(), 2);
  EXPECT_EQ(str(d["data"][0]["response_data"], "q"), "mine 2") << "newest first";
  EXPECT_EQ(str(d["data"][0], "form_title"), "Intake");
  auto second = parse(as(s, "GET", "/api/v2/portal/form-submissions?page=2&page_size=1").body);
  EXPECT_EQ(str(second["data"][0]["response_data"], "q"), "mine 1");

  auto resources = as(s, "GET", "/api/v2/portal/resources");
  ASSERT_EQ(resources.status, 200u) << resources.body;
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> by_kind;
  auto kinds = parse(resources.body);
  for (const auto& k : kinds["data"].GetArray()) {
    std::vector<std::string> ids;
    for (const auto& id : k["ids"].GetArray())
      ids.emplace_back(id.GetString());
    by_kind[str(k, "kind")] = {str(k, "level"), ids};
  }
  EXPECT_EQ(by_kind["campaign"].first, "view_only");
  EXPECT_EQ(by_kind["campaign"].second.size(), 4u) << "the four assigned, not the other's";
  EXPECT_EQ(by_kind["phone_number"].first, "no_access");
  EXPECT_TRUE(by_kind["phone_number"].second.empty());
  EXPECT_EQ(by_kind["assistant"].first, "view_only");
}

// A client user at full_access changes its campaign's own settings, and
// names only resources assigned to it: not the tenant's other voice
// providers, pools or assistants, and never where the results go.
TEST_F(portal_test, a_full_access_user_names_only_its_own_resources) {
  ASSERT_EQ(set_access("full_access").status, 200u);
  const auto path = "/api/v2/voice-campaigns/" + draft;
  ASSERT_EQ(
      pub("PATCH", path, t.key, R"({"webhook_url":"https://hooks.example.com/tenant"})").status,
      200u);
  auto vp = pub("POST", "/api/v2/voice-pod", t.key,
                R"({"voice_provider":"provider_d","provider_d_api_key":"k"})");
  ASSERT_EQ(vp.status, 201u) << vp.body;
  const auto provider = str(parse(vp.body)["data"], "voice_provider_id");
  auto s = sign_in();
  for (const auto& [body, field] : std::vector<std::pair<std::string, std::string>>{
           {R"({"webhook_url":"https://hooks.example.com/mine"})", "webhook_url"},
           {R"({"tenant_voice_provider_id":")" + provider + R"("})", "tenant_voice_provider_id"},
           {R"({"assistant_id":"asst_not_mine"})", "assistant_id"},
           {R"({"calling_purpose":"INFORMATIONAL"})", "calling_purpose"},
           {R"({"dialer_type":"POOL","phone_number_pool_id":"UGhvbmVOdW1iZXJQb29sOjc3"})",
            "phone_number_pool_id"}}) {
    auto r = as(s, "PATCH", path, body);
    EXPECT_EQ(r.status, 403u) << body << ": " << r.body;
    EXPECT_TRUE(parse(r.body)["errors"].HasMember(field.c_str())) << r.body;
  }
  auto kept = parse(pub("GET", path, t.key).body);
  EXPECT_EQ(str(kept["data"], "webhook_url"), "https://hooks.example.com/tenant");
  EXPECT_TRUE(kept["data"]["assistant_id"].IsNull()) << "nothing changed";

  // Its own settings, the form sent back whole, and an assigned assistant.
  auto ok = as(s, "PATCH", path,
               R"({"name":"renamed","webhook_url":"https://hooks.example.com/tenant",)"
               R"("calling_purpose":"NONE"})");
  EXPECT_EQ(ok.status, 200u) << ok.body;
  auto detail = parse(pub("GET", "/api/v2/clients/" + client_gid, t.key).body);
  const auto config = str(detail["account_configurations"][0], "asset_group_id");
  ASSERT_EQ(
      pub("POST", "/api/v2/client-account-configurations/" + config + "/resources/assign", t.key,
          R"({"assigned_resources":{"assistant":["asst_mine"],"campaign":[")" + draft + R"("]}})")
          .status,
      200u);
  auto assigned = as(s, "PATCH", path, R"({"assistant_id":"asst_mine"})");
  EXPECT_EQ(assigned.status, 200u) << assigned.body;
}

} // namespace
} // namespace vcs::test
