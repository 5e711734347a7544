// The subscription rules of the spec's tables: payment request updates,
// campaign pause and resume, the sweep, the billing cycle and usage.

#include "billing_fixture.hpp"
#include "storage/database.hpp"

#include <future>
#include <soci/soci.h>

#include <atomic>
#include <thread>
#include <vector>

namespace vcs::test {
namespace {

using std::chrono::hours;

class billing_rules_test : public billing_fixture {};

TEST_F(billing_rules_test, update_sets_paid_at_and_reference_and_answers_message_and_data) {
  auto id = issue("ONE_TIME", from_now(hours(24 * 30)), false);
  auto r = set_payment(id, "PAID", "pi_123");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto d = parse(r.body);
  EXPECT_EQ(str(d, "message"), "Payment request updated successfully");
  EXPECT_EQ(str(d["data"], "id"), id);
  EXPECT_EQ(str(d["data"], "status"), "PAID");
  EXPECT_EQ(str(d["data"], "external_payment_id"), "pi_123");
  auto paid_at = str(d["data"], "paid_at");
  EXPECT_EQ(paid_at.size(), 19u); // billing style, no zone
  // Within a minute of now (the clocks of test and service agree).
  auto when = domain::parse_iso8601(paid_at);
  ASSERT_TRUE(when);
  EXPECT_LT(std::chrono::abs(*when - domain::now()), std::chrono::minutes(1));

  // A repeated PAID keeps the first payment's time.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  auto again = parse(set_payment(id, "PAID").body);
  EXPECT_EQ(str(again["data"], "paid_at"), paid_at);
  EXPECT_EQ(str(again["data"], "external_payment_id"), "pi_123");
  // Any transition is allowed; leaving PAID clears paid_at.
  for (const char* s : {"FAILED", "PENDING", "OVERDUE", "CANCELED", "PENDING"}) {
    auto moved = set_payment(id, s);
    ASSERT_EQ(moved.status, 200u) << s << moved.body;
    EXPECT_EQ(str(parse(moved.body)["data"], "status"), s);
    EXPECT_TRUE(parse(moved.body)["data"]["paid_at"].IsNull()) << s;
  }
  EXPECT_EQ(str(payment(id), "status"), "PENDING");
}

TEST_F(billing_rules_test, update_validation_not_found_and_pro_gate) {
  auto id = issue("SUBSCRIPTION", from_now(hours(24 * 30)));
  auto missing = set_payment(id, "");
  EXPECT_EQ(missing.status, 400u);
  auto none = pub("PATCH", "/api/v2/external-billing/payment-requests/" + id + "/update", t.key,
                  R"({"external_payment_id":"x"})");
  ASSERT_EQ(none.status, 400u);
  EXPECT_TRUE(parse(none.body)["errors"].HasMember("status")) << none.body;
  auto wrong = set_payment(id, "REFUNDED");
  ASSERT_EQ(wrong.status, 400u);
  auto w = parse(wrong.body);
  EXPECT_TRUE(w["errors"].HasMember("status"));
  EXPECT_EQ(w["valid_values"].Size(), 5u);
  EXPECT_EQ(
      str(w, "message"),
      "Invalid status: 'REFUNDED'. Valid values are: PENDING, PAID, FAILED, CANCELED, OVERDUE");
  auto bad_ref = pub("PATCH", "/api/v2/external-billing/payment-requests/" + id + "/update", t.key,
                     R"({"status":"PAID","external_payment_id":42})");
  EXPECT_EQ(bad_ref.status, 400u);
  EXPECT_EQ(
      pub("PATCH", "/api/v2/external-billing/payment-requests/" + id + "/update", t.key, "not json")
          .status,
      400u);
  EXPECT_EQ(str(payment(id), "status"), "PENDING"); // nothing changed

  for (const std::string& target : {std::string{"999999999"}, std::string{"abc"}}) {
    auto r = set_payment(target, "PAID");
    EXPECT_EQ(r.status, 404u) << target;
    EXPECT_EQ(str(parse(r.body), "message"), "Payment request not found");
  }
  auto stranger = create_tenant("PRO");
  EXPECT_EQ(pub("PATCH", "/api/v2/external-billing/payment-requests/" + id + "/update",
                stranger.key, R"({"status":"PAID"})")
                .status,
            404u);
  auto starter = create_tenant("STARTER");
  auto gated = pub("PATCH", "/api/v2/external-billing/payment-requests/" + id + "/update",
                   starter.key, R"({"status":"PAID"})");
  EXPECT_EQ(gated.status, 403u);
  EXPECT_EQ(str(parse(gated.body), "message"),
            "External Billing API access requires a PRO plan. Error Code: external_billing_api");
  EXPECT_EQ(str(payment(id), "status"), "PENDING");
}

TEST_F(billing_rules_test, cycle_requests_need_a_subscription_and_get_a_default_grace) {
  auto body = [&](const std::string& type, const std::string& extra) {
    return R"({"client_id":")" + client_id + R"(","type":")" + type +
           R"(","amount":"1","currency":"USD","due_date":"2099-01-10T00:00:00Z",
               "period_start":"2099-01-01","period_end":"2099-02-01")" +
           extra + "}";
  };
  auto unlinked = op("POST", "/admin/v1/payment-requests", body("SUBSCRIPTION", ""));
  ASSERT_EQ(unlinked.status, 400u);
  EXPECT_TRUE(parse(unlinked.body)["errors"].HasMember("subscription_id")) << unlinked.body;
  auto pack_grace = op("POST", "/admin/v1/payment-requests",
                       body("ADDON", R"(,"grace_period_ends_at":"2099-01-17T00:00:00Z")"));
  ASSERT_EQ(pack_grace.status, 400u);
  EXPECT_TRUE(parse(pack_grace.body)["errors"].HasMember("grace_period_ends_at"));
  auto defaulted = op("POST", "/admin/v1/payment-requests",
                      body("OVERAGE", R"(,"subscription_id":")" + subscription_id + "\""));
  ASSERT_EQ(defaulted.status, 201u) << defaulted.body;
  EXPECT_EQ(str(parse(defaulted.body), "grace_period_ends_at"), "2099-01-17T00:00:00");
  auto pack = op("POST", "/admin/v1/payment-requests", body("ADDON", ""));
  ASSERT_EQ(pack.status, 201u) << pack.body;
  EXPECT_TRUE(parse(pack.body)["grace_period_ends_at"].IsNull());
  EXPECT_TRUE(parse(pack.body)["subscription_id"].IsNull());
}

// Row 1: active + a cycle request becomes OVERDUE -> past_due; campaigns
// blocked.
TEST_F(billing_rules_test, overdue_cycle_request_moves_active_to_past_due_and_pauses_campaigns) {
  EXPECT_EQ(campaign_statuses(), as_created());
  auto id = issue("SUBSCRIPTION", from_now(hours(24 * 30)));
  ASSERT_EQ(set_payment(id, "OVERDUE").status, 200u);
  EXPECT_EQ(subscription_status(), "past_due");
  EXPECT_EQ(campaign_statuses(), billing_paused());
  // While past_due, no campaign of the client can become ACTIVE.
  auto refused = set_campaign(campaigns["ACTIVE"], "ACTIVE");
  EXPECT_EQ(refused.status, 409u) << refused.body;
  EXPECT_EQ(campaign_status(campaigns["ACTIVE"]), "PAUSED");
}

TEST_F(billing_rules_test, overage_is_a_cycle_request_too) {
  auto id = issue("OVERAGE", from_now(hours(24 * 30)));
  ASSERT_EQ(set_payment(id, "OVERDUE").status, 200u);
  EXPECT_EQ(subscription_status(), "past_due");
}

TEST_F(billing_rules_test, pack_and_one_time_requests_never_move_the_subscription) {
  for (const char* type : {"ADDON", "ONE_TIME"}) {
    auto id = issue(type, from_now(hours(24 * 30)));
    ASSERT_EQ(set_payment(id, "OVERDUE").status, 200u);
    EXPECT_EQ(subscription_status(), "active") << type;
  }
  EXPECT_EQ(campaign_statuses(), as_created());
}

// Row 2: past_due + PAID with no cycle request left PENDING or OVERDUE ->
// active; exactly the campaigns the block paused resume, to their status.
TEST_F(billing_rules_test, paid_with_nothing_unresolved_resumes_exactly_the_billing_paused) {
  auto id = issue("SUBSCRIPTION", from_now(hours(24 * 30)));
  ASSERT_EQ(set_payment(id, "OVERDUE").status, 200u);
  ASSERT_EQ(subscription_status(), "past_due");
  auto r = set_payment(id, "PAID", "pi_9");
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(subscription_status(), "active");
  // The campaign paused by hand before the block stays paused.
  EXPECT_EQ(campaign_statuses(), as_created());
}

TEST_F(billing_rules_test, a_campaign_changed_by_hand_during_the_block_keeps_its_status) {
  auto id = issue("SUBSCRIPTION", from_now(hours(24 * 30)));
  ASSERT_EQ(set_payment(id, "OVERDUE").status, 200u);
  ASSERT_EQ(set_campaign(campaigns["ACTIVE"], "ENDED").status, 200u);
  ASSERT_EQ(set_payment(id, "PAID").status, 200u);
  auto expected = as_created();
  expected["ACTIVE"] = "ENDED";
  EXPECT_EQ(campaign_statuses(), expected);
}

// Every pause names its reason; one paused by hand stays paused when the
// billing block that paused it first is lifted.
TEST_F(billing_rules_test, a_pause_names_its_reason_and_a_billing_resume_keeps_a_pause_by_hand) {
  EXPECT_EQ(pause_reason(campaigns["ACTIVE"]), "");
  EXPECT_EQ(pause_reason(campaigns["PAUSED"]), "manual");
  auto id = issue("SUBSCRIPTION", from_now(hours(24 * 30)));
  ASSERT_EQ(set_payment(id, "OVERDUE").status, 200u);
  EXPECT_EQ(pause_reason(campaigns["ACTIVE"]), "billing");
  EXPECT_EQ(pause_reason(campaigns["SCHEDULED"]), "billing");
  EXPECT_EQ(pause_reason(campaigns["PAUSED"]), "manual");
  EXPECT_EQ(pause_reason(campaigns["DRAFT"]), "");
  // Paused by hand as well: it is the tenant's pause now.
  auto by_hand = set_campaign(campaigns["SCHEDULED"], "PAUSED");
  ASSERT_EQ(by_hand.status, 200u) << by_hand.body;
  EXPECT_EQ(pause_reason(campaigns["SCHEDULED"]), "manual");
  ASSERT_EQ(set_payment(id, "PAID").status, 200u);
  auto expected = as_created();
  expected["SCHEDULED"] = "PAUSED";
  EXPECT_EQ(campaign_statuses(), expected);
  EXPECT_EQ(pause_reason(campaigns["ACTIVE"]), "");
  EXPECT_EQ(pause_reason(campaigns["SCHEDULED"]), "manual");
  // A pause by hand ends by hand.
  ASSERT_EQ(set_campaign(campaigns["SCHEDULED"], "ACTIVE").status, 200u);
  EXPECT_EQ(pause_reason(campaigns["SCHEDULED"]), "");
}

// Row 3: past_due + PAID while another cycle request is PENDING or OVERDUE
// -> past_due until all are resolved.
TEST_F(billing_rules_test, paid_with_other_cycle_requests_unresolved_stays_past_due) {
  auto first = issue("SUBSCRIPTION", from_now(hours(24 * 30)));
  auto second = issue("OVERAGE", from_now(hours(24 * 30)));
  auto pending = issue("SUBSCRIPTION", from_now(hours(24 * 60)));
  ASSERT_EQ(set_payment(first, "OVERDUE").status, 200u);
  ASSERT_EQ(set_payment(second, "OVERDUE").status, 200u);
  ASSERT_EQ(set_payment(first, "PAID").status, 200u);
  EXPECT_EQ(subscription_status(), "past_due");
  ASSERT_EQ(set_payment(second, "PAID").status, 200u);
  EXPECT_EQ(subscription_status(), "past_due") << "a PENDING cycle request remains";
  EXPECT_EQ(campaign_statuses(), billing_paused());
  // A pack request paid meanwhile changes nothing either.
  auto addon = issue("ADDON", from_now(hours(24 * 30)));
  ASSERT_EQ(set_payment(addon, "PAID").status, 200u);
  EXPECT_EQ(subscription_status(), "past_due");
  ASSERT_EQ(set_payment(pending, "PAID").status, 200u);
  EXPECT_EQ(subscription_status(), "active");
  EXPECT_EQ(campaign_statuses(), as_created());
}

// Row 4: past_due whose grace period expired -> blocked; a payment does not
// revive it.
TEST_F(billing_rules_test, grace_expiry_blocks_and_payment_does_not_revive) {
  auto due = from_now(hours(24));
  auto id = issue("SUBSCRIPTION", due, true, hours(48));
  auto early = sweep(due - hours(1));
  ASSERT_EQ(early.status, 200u) << early.body;
  EXPECT_EQ(str(payment(id), "status"), "PENDING");
  EXPECT_EQ(subscription_status(), "active");

  auto overdue = sweep(due + hours(1));
  ASSERT_EQ(overdue.status, 200u) << overdue.body;
  EXPECT_GE(parse(overdue.body)["overdue"].GetInt(), 1);
  EXPECT_GE(parse(overdue.body)["past_due"].GetInt(), 1);
  EXPECT_EQ(str(payment(id), "status"), "OVERDUE");
  EXPECT_EQ(subscription_status(), "past_due");
  EXPECT_EQ(campaign_statuses(), billing_paused());

  // Still within the grace period.
  ASSERT_EQ(sweep(due + hours(47)).status, 200u);
  EXPECT_EQ(subscription_status(), "past_due");

  auto expired = sweep(due + hours(49));
  ASSERT_EQ(expired.status, 200u);
  EXPECT_GE(parse(expired.body)["blocked"].GetInt(), 1);
  EXPECT_EQ(subscription_status(), "blocked");
  ASSERT_EQ(set_payment(id, "PAID").status, 200u);
  EXPECT_EQ(subscription_status(), "blocked");
  EXPECT_EQ(campaign_statuses(), billing_paused());
  auto refused = set_campaign(campaigns["SCHEDULED"], "ACTIVE");
  EXPECT_EQ(refused.status, 409u) << refused.body;
}

TEST_F(billing_rules_test, sweep_marks_requests_outside_subscriptions_overdue_too) {
  auto due = from_now(hours(24));
  auto linked = issue("ONE_TIME", due);
  auto unlinked = issue("ONE_TIME", due, false);
  ASSERT_EQ(sweep(due + hours(1)).status, 200u);
  EXPECT_EQ(str(payment(linked), "status"), "OVERDUE");
  EXPECT_EQ(str(payment(unlinked), "status"), "OVERDUE");
  EXPECT_EQ(subscription_status(), "active");
  // A settled request stays settled.
  auto paid = issue("SUBSCRIPTION", due);
  ASSERT_EQ(set_payment(paid, "PAID").status, 200u);
  ASSERT_EQ(sweep(due + hours(2)).status, 200u);
  EXPECT_EQ(str(payment(paid), "status"), "PAID");
  EXPECT_EQ(subscription_status(), "active");
}

TEST_F(billing_rules_test, sweep_endpoint_validates_and_defaults_to_the_clock) {
  auto bad = op("POST", "/admin/v1/billing/sweep", R"({"now":"yesterday"})");
  ASSERT_EQ(bad.status, 400u);
  EXPECT_TRUE(parse(bad.body)["errors"].HasMember("now"));
  EXPECT_EQ(op("POST", "/admin/v1/billing/sweep", "[1]").status, 400u);
  auto plain = op("POST", "/admin/v1/billing/sweep");
  ASSERT_EQ(plain.status, 200u) << plain.body;
  auto d = parse(plain.body);
  for (const char* k : {"overdue", "past_due", "blocked", "renewed", "subscription_requests",
                        "overage_requests", "campaigns_paused", "subscriptions", "failed"})
    EXPECT_TRUE(d.HasMember(k) && d[k].IsInt64()) << k;
  auto when = domain::parse_iso8601(str(d, "now"));
  ASSERT_TRUE(when);
  EXPECT_LT(std::chrono::abs(*when - domain::now()), std::chrono::minutes(1));
  http_client anon{"127.0.0.1", svc.operator_port()};
  EXPECT_EQ(anon.request("POST", "/admin/v1/billing/sweep", "{}").status, 401u);
}

TEST_F(billing_rules_test, consumption_order_included_then_addon_then_billable) {
  auto r = minutes("/admin/v1/usage", "99.99");
  ASSERT_EQ(r.status, 200u) << r.body;
  auto u = parse(r.body);
  EXPECT_EQ(str(u, "minutes_included_used"), "99.99");
  EXPECT_EQ(str(u, "minutes_billable_used"), "0.00");
  EXPECT_EQ(str(u, "subscription_id"), subscription_id);
  EXPECT_EQ(str(u, "client_name"), "Rules");
  auto a = minutes("/admin/v1/usage/addon", "10.5");
  ASSERT_EQ(a.status, 200u) << a.body;
  EXPECT_EQ(str(parse(a.body), "minutes_addon_balance"), "10.50");
  // 0.01 fills the included limit, 10.50 empties the add-on, 0.49 is billable.
  auto after = parse(minutes("/admin/v1/usage", "11").body);
  EXPECT_EQ(str(after, "minutes_included_limit"), "100.00");
  EXPECT_EQ(str(after, "minutes_included_used"), "100.00");
  EXPECT_EQ(str(after, "minutes_addon_balance"), "0.00");
  EXPECT_EQ(str(after, "minutes_billable_used"), "0.49");
  auto more = parse(minutes("/admin/v1/usage", "0.01").body);
  EXPECT_EQ(str(more, "minutes_billable_used"), "0.50");
  // The public usage read shows the same record.
  auto listed = usage();
  EXPECT_EQ(str(listed, "minutes_billable_used"), "0.50");
  EXPECT_EQ(str(listed, "minutes_included_used"), "100.00");
}

TEST_F(billing_rules_test, usage_validation) {
  for (const char* body :
       {R"({"client_id":"CID","minutes":"0"})", R"({"client_id":"CID","minutes":"-1"})",
        R"({"client_id":"CID","minutes":"1.234"})", R"({"client_id":"CID","minutes":"1e3"})",
        R"({"client_id":"CID"})", R"({"minutes":"1"})", R"({"client_id":"nope","minutes":"1"})"}) {
    std::string b = body;
    if (auto at = b.find("CID"); at != std::string::npos)
      b.replace(at, 3, client_id);
    for (const char* path : {"/admin/v1/usage", "/admin/v1/usage/addon"}) {
      auto r = op("POST", path, b);
      EXPECT_EQ(r.status, 400u) << path << " " << b << " " << r.body;
    }
  }
  auto unknown = op("POST", "/admin/v1/usage", R"({"client_id":"999999999","minutes":"1"})");
  EXPECT_EQ(unknown.status, 404u);
  EXPECT_EQ(str(parse(unknown.body), "message"), "Client not found");
  // The global id works as well as the integer.
  auto by_gid =
      op("POST", "/admin/v1/usage", R"({"client_id":")" + client_gid + R"(","minutes":1.25})");
  ASSERT_EQ(by_gid.status, 200u) << by_gid.body;
  EXPECT_EQ(str(parse(by_gid.body), "minutes_included_used"), "1.25");
}

TEST_F(billing_rules_test, billing_cycle_rollover) {
  auto sub = parse(
      pub("GET", "/api/v2/external-billing/subscriptions/" + subscription_id + "/", t.key).body);
  auto start = *domain::parse_iso8601(str(sub, "current_period_start"));
  auto end = *domain::parse_iso8601(str(sub, "current_period_end"));
  ASSERT_EQ(minutes("/admin/v1/usage/addon", "20").status, 200u);
  ASSERT_EQ(minutes("/admin/v1/usage", "150").status, 200u); // 100 + 20 + 30 billable
  ASSERT_EQ(minutes("/admin/v1/usage/addon", "5").status, 200u);

  // Not yet at the period end: nothing rolls over.
  ASSERT_EQ(sweep(end - hours(1)).status, 200u);
  EXPECT_EQ(str(usage(), "minutes_billable_used"), "30.00");

  auto r = sweep(end + std::chrono::seconds(2));
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_GE(parse(r.body)["renewed"].GetInt(), 1);
  auto renewed = parse(
      pub("GET", "/api/v2/external-billing/subscriptions/" + subscription_id + "/", t.key).body);
  EXPECT_EQ(str(renewed, "current_period_start"), str(sub, "current_period_end"));
  auto new_end = *domain::parse_iso8601(str(renewed, "current_period_end"));
  EXPECT_GT(new_end, end + hours(24 * 27));
  EXPECT_LT(new_end, end + hours(24 * 32));
  EXPECT_EQ(str(renewed, "status"), "active");

  auto u = usage();
  EXPECT_EQ(str(u, "minutes_included_limit"), "100.00");
  EXPECT_EQ(str(u, "minutes_included_used"), "0.00");
  EXPECT_EQ(str(u, "minutes_billable_used"), "0.00");
  EXPECT_EQ(str(u, "minutes_addon_balance"), "5.00"); // carries forward
  EXPECT_EQ(str(u, "current_period_start"), str(renewed, "current_period_start"));

  auto sub_req = parse(
      pub("GET",
          "/api/v2/external-billing/payment-requests?type=SUBSCRIPTION&client_id=" + client_id,
          t.key)
          .body);
  ASSERT_EQ(sub_req["meta"]["total"].GetInt(), 1);
  const auto& s = sub_req["data"][0];
  EXPECT_EQ(str(s, "status"), "PENDING");
  EXPECT_EQ(str(s, "amount"), "49.00");
  EXPECT_EQ(str(s, "currency"), "USD");
  EXPECT_EQ(str(s, "subscription_id"), subscription_id);
  EXPECT_EQ(str(s, "period_start"), str(renewed, "current_period_start"));
  EXPECT_EQ(str(s, "period_end"), str(renewed, "current_period_end"));
  auto due = *domain::parse_iso8601(str(s, "due_date"));
  auto period_start = *domain::parse_iso8601(str(s, "period_start"));
  EXPECT_EQ(due - period_start, hours(24 * 7));
  EXPECT_EQ(*domain::parse_iso8601(str(s, "grace_period_ends_at")) - due, hours(24 * 7));
  ASSERT_EQ(s["line_items"].Size(), 1u);
  EXPECT_EQ(str(s["line_items"][0], "amount"), "49.00");

  auto over = parse(
      pub("GET", "/api/v2/external-billing/payment-requests?type=OVERAGE&client_id=" + client_id,
          t.key)
          .body);
  ASSERT_EQ(over["meta"]["total"].GetInt(), 1);
  const auto& o = over["data"][0];
  EXPECT_EQ(str(o, "amount"), "0.60"); // 30 minutes at 0.02
  EXPECT_EQ(str(o, "period_start"), str(sub, "current_period_start"));
  EXPECT_EQ(str(o, "period_end"), str(sub, "current_period_end"));
  ASSERT_EQ(o["line_items"].Size(), 1u);
  EXPECT_EQ(str(o["line_items"][0], "quantity"), "30.00");
  EXPECT_EQ(str(o["line_items"][0], "unit_amount"), "0.02");
  EXPECT_EQ(str(o["line_items"][0], "amount"), "0.60");
  (void)start;

  // Sweeping again at the same time issues nothing more.
  ASSERT_EQ(sweep(end + std::chrono::seconds(3)).status, 200u);
  EXPECT_EQ(
      parse(pub("GET", "/api/v2/external-billing/payment-requests?client_id=" + client_id, t.key)
                .body)["meta"]["total"]
          .GetInt(),
      2);
}

// A campaign started while its client's subscription goes past_due ends
// paused: the block either waits for the start to commit and pauses it, or
// commits first and the start is refused.
TEST_F(billing_rules_test, a_campaign_start_racing_the_block_never_stays_running) {
  auto id = issue("SUBSCRIPTION", from_now(hours(24 * 30)));
  const auto& draft = campaigns["DRAFT"];
  std::atomic<bool> stop{false};
  std::thread toggler([&] {
    http_client c{"127.0.0.1", svc.public_port()};
    for (int i = 0; !stop && i < 400; ++i)
      c.request("PATCH", "/api/v2/voice-campaigns/" + draft + "/status",
                std::string{R"({"status":")"} + (i % 2 ? "DRAFT" : "ACTIVE") + "\"}",
                bearer(t.key));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_EQ(set_payment(id, "OVERDUE").status, 200u);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  stop = true;
  toggler.join();
  auto s = campaign_status(draft);
  EXPECT_TRUE(s == "PAUSED" || s == "DRAFT") << s;
  EXPECT_EQ(set_campaign(draft, "ACTIVE").status, 409u);
  EXPECT_EQ(set_campaign(draft, "SCHEDULED").status, 409u);
  // Paying restores what the block paused and leaves the rest.
  ASSERT_EQ(set_payment(id, "PAID").status, 200u);
  auto after = campaign_status(draft);
  EXPECT_TRUE(after == "ACTIVE" || after == "DRAFT") << after;
  EXPECT_EQ(after == "ACTIVE", s == "PAUSED");
}

// A subscription whose sweep fails half-way keeps nothing of it (the
// OVERAGE request written before the failure is gone, the period and the
// usage are untouched), and the next sweep does the whole roll-over once.
TEST_F(billing_rules_test, a_sweep_failing_midway_leaves_no_half_applied_state) {
  auto sql = storage::open_session(database_url());
  // Fails the SUBSCRIPTION insert of this client only, after the OVERAGE
  // insert and the period change of the same roll-over.
  auto fn = "vcs_test_fail_" + client_id;
  *sql << "CREATE FUNCTION " + fn + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN " +
              "IF NEW.client_id = " + client_id + " AND NEW.type = 'SUBSCRIPTION' THEN " +
              "RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$";
  *sql << "CREATE TRIGGER " + fn + " BEFORE INSERT ON payment_requests FOR EACH ROW " +
              "EXECUTE FUNCTION " + fn + "()";
  auto drop = [&] {
    *sql << "DROP TRIGGER IF EXISTS " + fn + " ON payment_requests";
    *sql << "DROP FUNCTION IF EXISTS " + fn + "()";
  };
  auto sub = parse(
      pub("GET", "/api/v2/external-billing/subscriptions/" + subscription_id + "/", t.key).body);
  auto end = *domain::parse_iso8601(str(sub, "current_period_end"));
  ASSERT_EQ(minutes("/admin/v1/usage", "130").status, 200u); // 30 billable

  auto failed = sweep(end + std::chrono::seconds(2));
  ASSERT_EQ(failed.status, 200u) << failed.body;
  EXPECT_GE(parse(failed.body)["failed"].GetInt(), 1);
  auto unchanged = parse(
      pub("GET", "/api/v2/external-billing/subscriptions/" + subscription_id + "/", t.key).body);
  EXPECT_EQ(str(unchanged, "current_period_end"), str(sub, "current_period_end"));
  EXPECT_EQ(str(usage(), "minutes_billable_used"), "30.00");
  auto none = parse(
      pub("GET", "/api/v2/external-billing/payment-requests?client_id=" + client_id, t.key).body);
  EXPECT_EQ(none["meta"]["total"].GetInt(), 0);

  drop();
  ASSERT_EQ(sweep(end + std::chrono::seconds(2)).status, 200u);
  auto both = parse(
      pub("GET", "/api/v2/external-billing/payment-requests?client_id=" + client_id, t.key).body);
  EXPECT_EQ(both["meta"]["total"].GetInt(), 2);
  EXPECT_EQ(str(usage(), "minutes_billable_used"), "0.00");
}

// While another node holds the sweep lock, a sweep waits for it.
TEST_F(billing_rules_test, one_node_sweeps_at_a_time) {
  auto due = from_now(hours(24));
  auto id = issue("SUBSCRIPTION", due);
  auto other_node = storage::open_session(database_url());
  *other_node << "SELECT pg_advisory_lock(7216100002)";
  auto pending = std::async(std::launch::async, [&] {
    http_client c{"127.0.0.1", svc.operator_port()};
    return c.request("POST", "/admin/v1/billing/sweep", R"({"now":")" + iso(due + hours(1)) + "\"}",
                     bearer(svc.operator_token()));
  });
  EXPECT_EQ(pending.wait_for(std::chrono::milliseconds(500)), std::future_status::timeout);
  EXPECT_EQ(str(payment(id), "status"), "PENDING");
  *other_node << "SELECT pg_advisory_unlock(7216100002)";
  auto r = pending.get();
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(str(payment(id), "status"), "OVERDUE");
  EXPECT_EQ(subscription_status(), "past_due");
}

// Many concurrent PAID/OVERDUE updates and usage recordings on one
// subscription, from two service nodes: the final state is the serial one.
TEST_F(billing_rules_test, concurrent_updates_and_usage_from_two_nodes_end_in_the_serial_state) {
  service_process second_node;
  constexpr int requests = 8;
  constexpr int recordings_per_thread = 25;
  constexpr int usage_threads = 4;
  std::vector<std::string> ids;
  for (int i = 0; i < requests; ++i)
    ids.push_back(issue(i % 2 ? "OVERAGE" : "SUBSCRIPTION", from_now(hours(24 * 30))));
  ASSERT_EQ(minutes("/admin/v1/usage/addon", "30").status, 200u);

  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < requests; ++i)
    threads.emplace_back([&, i] {
      auto port = i % 2 ? second_node.public_port() : svc.public_port();
      http_client c{"127.0.0.1", port};
      // Each request goes OVERDUE, then PAID, a few times over.
      for (int round = 0; round < 5; ++round)
        for (const char* s : {"OVERDUE", "PAID"}) {
          auto r =
              c.request("PATCH", "/api/v2/external-billing/payment-requests/" + ids[i] + "/update",
                        std::string{R"({"status":")"} + s + "\"}", bearer(t.key));
          if (r.status != 200)
            ++failures;
        }
    });
  for (int i = 0; i < usage_threads; ++i)
    threads.emplace_back([&, i] {
      bool second = i % 2;
      http_client c{"127.0.0.1", second ? second_node.operator_port() : svc.operator_port()};
      auto token = second ? second_node.operator_token() : svc.operator_token();
      for (int k = 0; k < recordings_per_thread; ++k) {
        auto r =
            c.request("POST", "/admin/v1/usage",
                      R"({"client_id":")" + client_id + R"(","minutes":"1.37"})", bearer(token));
        if (r.status != 200)
          ++failures;
      }
    });
  for (auto& th : threads)
    th.join();
  EXPECT_EQ(failures.load(), 0);

  // Every request ended PAID after being OVERDUE: the subscription is
  // active and the campaigns are back as they were.
  for (const auto& id : ids)
    EXPECT_EQ(str(payment(id), "status"), "PAID");
  EXPECT_EQ(subscription_status(), "active");
  EXPECT_EQ(campaign_statuses(), as_created());
  // 100 recordings of 1.37 = 137.00: 100 included, 30 add-on, 7 billable.
  auto u = usage();
  EXPECT_EQ(str(u, "minutes_included_used"), "100.00");
  EXPECT_EQ(str(u, "minutes_addon_balance"), "0.00");
  EXPECT_EQ(str(u, "minutes_billable_used"), "7.00");
  EXPECT_EQ(second_node.terminate(), 0);
}

} // namespace
} // namespace vcs::test
