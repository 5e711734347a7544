// `voice-campaign-service admin`: each command against a running node, its
// effect seen through the APIs, and its refusals and usage mistakes.

#include "command_run.hpp"
#include "service_fixture.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>

namespace vcs::test {
namespace {

class admin_cli_test : public service_test {
protected:
  command_result admin(const std::string& args, const std::string& token = {}) {
    return run_service_command(
        "VCS_OPERATOR_TOKEN=" + (token.empty() ? svc.operator_token() : token),
        "admin " + args +
            " --operator-url=http://127.0.0.1:" + std::to_string(svc.operator_port()));
  }

  // The value on the output's `name: value` line; empty when there is none.
  static std::string value_of(const std::string& out, const std::string& name) {
    std::istringstream in{out};
    for (std::string line; std::getline(in, line);)
      if (line.rfind(name + ": ", 0) == 0)
        return line.substr(name.size() + 2);
    return {};
  }

  // The table row whose first column is `first`; empty when there is none.
  static std::string row_of(const std::string& out, const std::string& first) {
    std::istringstream in{out};
    for (std::string line; std::getline(in, line);)
      if (line.rfind(first + " ", 0) == 0)
        return line;
    return {};
  }

  rapidjson::Document tenant(const std::string& id) {
    auto r = op("GET", "/admin/v1/tenants/" + id);
    EXPECT_EQ(r.status, 200u) << r.body;
    return parse(r.body);
  }
};

TEST_F(admin_cli_test, tenants_are_created_shown_changed_listed_and_switched_off) {
  auto made = admin("tenants create 'CLI tenant' --plan=STARTER --campaign-limit=5");
  ASSERT_EQ(made.status, 0) << made.err;
  const auto id = value_of(made.out, "tenant_id");
  const auto key = value_of(made.out, "api_key.key");
  ASSERT_FALSE(id.empty()) << made.out;
  EXPECT_EQ(value_of(made.out, "name"), "CLI tenant");
  EXPECT_EQ(value_of(made.out, "plan"), "STARTER");
  EXPECT_EQ(value_of(made.out, "campaign_limit"), "5");
  EXPECT_EQ(pub("GET", "/api/v2/clients", key).status, 200u);

  ASSERT_EQ(admin("tenants set-plan " + id + " ENTERPRISE").status, 0);
  auto shown = admin("tenants show " + id);
  ASSERT_EQ(shown.status, 0) << shown.err;
  EXPECT_EQ(value_of(shown.out, "plan"), "ENTERPRISE");
  EXPECT_EQ(value_of(shown.out, "campaign_limit"), "5");
  EXPECT_EQ(shown.out.find(key), std::string::npos);

  ASSERT_EQ(admin("tenants set-campaign-limit " + id + " 9").status, 0);
  EXPECT_EQ(tenant(id)["campaign_limit"].GetInt(), 9);
  ASSERT_EQ(admin("tenants set-campaign-limit " + id + " plan").status, 0);
  auto fresh = parse(op("POST", "/admin/v1/tenants", R"({"name":"e","plan":"ENTERPRISE"})").body);
  EXPECT_EQ(tenant(id)["campaign_limit"].GetInt(), fresh["campaign_limit"].GetInt());

  // Listed from just before it, never with a key.
  auto before = std::to_string(tenant_db_id({id, key, ""}) - 1);
  auto listed = admin("tenants list --limit=1 --after=" + before);
  ASSERT_EQ(listed.status, 0) << listed.err;
  EXPECT_EQ(listed.out.rfind("tenant_id ", 0), 0u) << listed.out;
  auto row = row_of(listed.out, id);
  EXPECT_NE(row.find("ENTERPRISE"), std::string::npos) << listed.out;
  EXPECT_EQ(value_of(listed.out, "next_after"), id);
  EXPECT_EQ(listed.out.find(key), std::string::npos);

  ASSERT_EQ(admin("tenants deactivate " + id).status, 0);
  EXPECT_EQ(pub("GET", "/api/v2/clients", key).status, 403u);
  auto inactive = admin("tenants list --active=false --after=" + before);
  EXPECT_FALSE(row_of(inactive.out, id).empty()) << inactive.out;
  ASSERT_EQ(admin("tenants activate " + id).status, 0);
  EXPECT_EQ(pub("GET", "/api/v2/clients", key).status, 200u);
}

TEST_F(admin_cli_test, keys_are_created_listed_masked_disabled_enabled_and_deleted) {
  auto t = create_tenant();
  auto made = admin("keys create " + t.id + " dialer");
  ASSERT_EQ(made.status, 0) << made.err;
  const auto key = value_of(made.out, "key");
  const auto key_id = value_of(made.out, "id");
  EXPECT_EQ(value_of(made.out, "status"), "Active");
  EXPECT_EQ(pub("GET", "/api/v2/clients", key).status, 200u);

  auto listed = admin("keys list " + t.id);
  ASSERT_EQ(listed.status, 0) << listed.err;
  EXPECT_NE(row_of(listed.out, key_id).find("vcs_****" + key.substr(key.size() - 4)),
            std::string::npos)
      << listed.out;
  EXPECT_EQ(listed.out.find(key), std::string::npos);
  EXPECT_EQ(listed.out.find(t.key), std::string::npos);

  ASSERT_EQ(admin("keys disable " + key_id).status, 0);
  EXPECT_EQ(pub("GET", "/api/v2/clients", key).status, 401u);
  EXPECT_EQ(pub("GET", "/api/v2/clients", t.key).status, 200u);
  ASSERT_EQ(admin("keys enable " + key_id).status, 0);
  EXPECT_EQ(pub("GET", "/api/v2/clients", key).status, 200u);
  ASSERT_EQ(admin("keys delete " + key_id).status, 0);
  EXPECT_EQ(pub("GET", "/api/v2/clients", key).status, 401u);
  auto again = admin("keys delete " + key_id);
  EXPECT_EQ(again.status, 1);
  EXPECT_NE(again.err.find("404: API key not found"), std::string::npos) << again.err;
}

TEST_F(admin_cli_test, a_tenants_owner_gets_a_set_up_link_that_signs_in) {
  auto t = create_tenant();
  const auto email = "cli-owner-" + std::to_string(tenant_db_id(t)) + "@example.test";
  auto made = admin("members add " + t.id + " " + email);
  ASSERT_EQ(made.status, 0) << made.err;
  EXPECT_EQ(value_of(made.out, "data.role"), "owner");
  EXPECT_EQ(value_of(made.out, "data.status"), "Invited");
  const auto url = value_of(made.out, "setup_url");
  const auto prefix =
      "http://127.0.0.1:" + std::to_string(svc.public_port()) + "/console/setup#token=";
  ASSERT_EQ(url.rfind(prefix, 0), 0u) << made.out;
  const auto origin = "http://127.0.0.1:" + std::to_string(svc.public_port());
  auto use = [&](const std::string& link) {
    return public_client.request(
        "POST", "/api/v2/session/setup",
        R"({"token":")" + link.substr(prefix.size()) + R"(","password":"from the cli 1"})",
        {{"Origin", origin}, {"Host", origin.substr(7)}, {"Content-Type", "application/json"}});
  };
  EXPECT_EQ(use(url).status, 201u);

  auto listed = admin("members list " + t.id);
  ASSERT_EQ(listed.status, 0) << listed.err;
  const auto member_id = value_of(made.out, "data.id");
  EXPECT_NE(row_of(listed.out, member_id).find("Active"), std::string::npos) << listed.out;

  auto again = admin("members setup-link " + t.id + " " + member_id);
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_NE(value_of(again.out, "setup_url"), url);
  EXPECT_EQ(use(value_of(again.out, "setup_url")).status, 201u);

  auto taken = admin("members add " + t.id + " " + email);
  EXPECT_EQ(taken.status, 1);
  EXPECT_NE(taken.err.find("409: This e-mail already belongs to a member of this tenant"),
            std::string::npos)
      << taken.err;
  auto bad_role = admin("members add " + t.id + " other@example.test --role=king");
  EXPECT_EQ(bad_role.status, 1);
  EXPECT_NE(bad_role.err.find("Must be owner, admin or viewer."), std::string::npos)
      << bad_role.err;
}

TEST_F(admin_cli_test, a_webhook_secret_is_issued_once_and_a_sweep_runs) {
  auto t = create_tenant();
  auto issued = admin("webhook-secret issue " + t.id + " --grace-period-seconds=0");
  ASSERT_EQ(issued.status, 0) << issued.err;
  const auto secret = value_of(issued.out, "data.webhook_secret");
  EXPECT_EQ(secret.rfind("whsec_", 0), 0u) << issued.out;
  EXPECT_EQ(value_of(issued.out, "data.previous_secret_expires_at"), "-");
  // A second one replaces it; the first signs beside it for the grace period.
  auto next = admin("webhook-secret issue " + t.id + " --grace-period-seconds=60");
  ASSERT_EQ(next.status, 0) << next.err;
  EXPECT_NE(value_of(next.out, "data.webhook_secret"), secret);
  EXPECT_NE(value_of(next.out, "data.previous_secret_expires_at"), "-");

  // At the clock's time, as the node's own sweeps do: another time would
  // act on every tenant of the shared node.
  auto sweep = admin("billing sweep");
  ASSERT_EQ(sweep.status, 0) << sweep.err;
  EXPECT_EQ(value_of(sweep.out, "now").rfind("20", 0), 0u) << sweep.out;
  EXPECT_FALSE(value_of(sweep.out, "subscriptions").empty()) << sweep.out;
  auto bad = admin("billing sweep --now=yesterday");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("error: 400"), std::string::npos) << bad.err;
}

TEST_F(admin_cli_test, imports_and_deliveries_are_shown) {
  auto t = create_tenant();
  auto c = pub("POST", "/api/v2/voice-campaigns", t.key,
               R"({"name":"cli","webhook_url":"https://hooks.example.com/in"})");
  ASSERT_EQ(c.status, 201u) << c.body;
  auto campaign = str(parse(c.body)["data"], "campaign_id");
  auto base = "/api/v2/voice-campaigns/" + campaign;
  auto bulk = pub("POST", base + "/leads/bulk", t.key, numbered_leads(3, 7100));
  ASSERT_EQ(bulk.status, 200u) << bulk.body;
  auto import_id = str(parse(bulk.body), "import_id");
  wait_import(base, t.key, import_id);

  auto table = admin("imports list --tenant=" + t.id);
  ASSERT_EQ(table.status, 0) << table.err;
  auto row = row_of(table.out, import_id);
  EXPECT_NE(row.find(t.id), std::string::npos) << table.out;
  EXPECT_NE(row.find(" done "), std::string::npos) << table.out;
  auto json = admin("imports list --json --status=done --tenant=" + t.id);
  ASSERT_EQ(json.status, 0) << json.err;
  auto d = parse(json.out);
  ASSERT_EQ(d["imports"].Size(), 1u);
  EXPECT_EQ(d["imports"][0]["import"]["inserted"].GetInt(), 3);
  auto bad = admin("imports list --status=finished");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("finished"), std::string::npos) << bad.err;

  auto test = pub("POST", base + "/webhook-test", t.key);
  ASSERT_EQ(test.status, 202u) << test.body;
  auto delivery = str(parse(test.body)["data"], "id");
  auto deliveries = admin("deliveries list " + t.id);
  ASSERT_EQ(deliveries.status, 0) << deliveries.err;
  EXPECT_NE(row_of(deliveries.out, delivery).find("webhook.test"), std::string::npos)
      << deliveries.out;
  auto missing = admin("deliveries replay " + t.id + " 999999999");
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("404"), std::string::npos) << missing.err;
}

TEST_F(admin_cli_test, refusals_fail_with_the_apis_message_and_mistakes_send_nothing) {
  auto unknown = admin("tenants show 999999999");
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.err.find("error: 404: Tenant not found"), std::string::npos) << unknown.err;
  auto bad_plan = admin("tenants create nobody --plan=GOLD");
  EXPECT_EQ(bad_plan.status, 1);
  EXPECT_NE(bad_plan.err.find("plan: Must be one of"), std::string::npos) << bad_plan.err;
  auto wrong_token = admin("tenants list", "not-the-token");
  EXPECT_EQ(wrong_token.status, 1);
  EXPECT_NE(wrong_token.err.find("401"), std::string::npos) << wrong_token.err;

  // Usage mistakes exit 2 before any request: the tenant is never made.
  for (const char* mistake :
       {"tenants create 'never made'", "tenants create 'never made' --plan=PRO --colour=red",
        "tenants create 'never made' --plan=PRO --campaign-limit=lots", "tenants frobnicate",
        "tenants show", "keys create only-one-operand", "imports list --timeout=0", ""}) {
    auto r = admin(mistake);
    EXPECT_EQ(r.status, std::string{mistake}.empty() ? 0 : 2) << mistake << ": " << r.err;
  }
  auto all = op("GET", "/admin/v1/tenants?limit=1000");
  EXPECT_EQ(all.body.find("never made"), std::string::npos);

  auto unreachable = run_service_command("VCS_OPERATOR_TOKEN=t",
                                         "admin tenants list --operator-url=http://127.0.0.1:" +
                                             std::to_string(free_port()));
  EXPECT_EQ(unreachable.status, 1);
  EXPECT_NE(unreachable.err.find("cannot reach the operator API"), std::string::npos)
      << unreachable.err;
  // A listener that takes the connection and never answers: admin gives up
  // at --timeout, whatever step it is at.
  const int silent = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in at{};
  at.sin_family = AF_INET;
  at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof at;
  ASSERT_EQ(::bind(silent, reinterpret_cast<sockaddr*>(&at), sizeof at), 0);
  ASSERT_EQ(::listen(silent, 4), 0);
  ASSERT_EQ(::getsockname(silent, reinterpret_cast<sockaddr*>(&at), &length), 0);
  auto unanswered = run_service_command(
      "VCS_OPERATOR_TOKEN=t", "admin tenants list --timeout=1 --operator-url=http://127.0.0.1:" +
                                  std::to_string(ntohs(at.sin_port)));
  ::close(silent);
  EXPECT_EQ(unanswered.status, 1);
  EXPECT_NE(unanswered.err.find("did not answer within 1 s"), std::string::npos) << unanswered.err;
  auto not_a_url = run_service_command("VCS_OPERATOR_TOKEN=t",
                                       "admin tenants list --operator-url=ftp://127.0.0.1:1");
  EXPECT_EQ(not_a_url.status, 2) << not_a_url.err;
  auto no_token = run_service_command("", "admin tenants list");
  EXPECT_EQ(no_token.status, 2);
  EXPECT_NE(no_token.err.find("VCS_OPERATOR_TOKEN"), std::string::npos) << no_token.err;
}

} // namespace
} // namespace vcs::test
