#include "domain/subscription_rules.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vcs::domain {
namespace {

timestamp at(const char* iso) {
  return *parse_iso8601(iso);
}

TEST(subscription_rules, only_subscription_and_overage_are_cycle_requests) {
  EXPECT_TRUE(is_cycle_request("SUBSCRIPTION"));
  EXPECT_TRUE(is_cycle_request("OVERAGE"));
  EXPECT_FALSE(is_cycle_request("ADDON"));
  EXPECT_FALSE(is_cycle_request("ONE_TIME"));
}

TEST(subscription_rules, overdue_cycle_request_moves_active_to_past_due) {
  auto t = after_payment_change("active", "SUBSCRIPTION", "OVERDUE", 1);
  EXPECT_EQ(t.status, "past_due");
  EXPECT_TRUE(t.pause_campaigns);
  EXPECT_FALSE(t.resume_campaigns);
  EXPECT_EQ(after_payment_change("active", "OVERAGE", "OVERDUE", 1).status, "past_due");
}

TEST(subscription_rules, overdue_pack_request_or_non_active_subscription_changes_nothing) {
  for (const char* type : {"ADDON", "ONE_TIME"}) {
    auto t = after_payment_change("active", type, "OVERDUE", 0);
    EXPECT_EQ(t.status, "active") << type;
    EXPECT_FALSE(t.pause_campaigns);
  }
  for (const char* status : {"past_due", "blocked", "canceled"}) {
    auto t = after_payment_change(status, "SUBSCRIPTION", "OVERDUE", 1);
    EXPECT_EQ(t.status, status);
    EXPECT_FALSE(t.pause_campaigns);
  }
}

TEST(subscription_rules, paid_resumes_only_when_no_cycle_request_is_unresolved) {
  auto resolved = after_payment_change("past_due", "SUBSCRIPTION", "PAID", 0);
  EXPECT_EQ(resolved.status, "active");
  EXPECT_TRUE(resolved.resume_campaigns);
  auto open = after_payment_change("past_due", "SUBSCRIPTION", "PAID", 1);
  EXPECT_EQ(open.status, "past_due");
  EXPECT_FALSE(open.resume_campaigns);
  // Blocked must be canceled and restarted; a payment does not revive it.
  EXPECT_EQ(after_payment_change("blocked", "SUBSCRIPTION", "PAID", 0).status, "blocked");
  EXPECT_EQ(after_payment_change("active", "SUBSCRIPTION", "PAID", 0).status, "active");
  for (const char* s : {"PENDING", "FAILED", "CANCELED"})
    EXPECT_EQ(after_payment_change("past_due", "SUBSCRIPTION", s, 0).status, "past_due") << s;
}

TEST(subscription_rules, minutes_consume_included_then_addon_then_billable) {
  minute_balance b{10000, 9950, 2000, 0}; // 100 included, 99.5 used, 20 add-on
  auto after = consume(b, 2525);          // 25.25 minutes
  EXPECT_EQ(after.included_used, 10000);
  EXPECT_EQ(after.addon_balance, 0);
  EXPECT_EQ(after.billable_used, 475); // 25.25 - 0.5 - 20
  EXPECT_EQ(after.included_limit, 10000);
  EXPECT_EQ(consume(after, 1).billable_used, 476);
  // Within the included limit nothing else moves.
  EXPECT_EQ(consume(minute_balance{10000, 0, 500, 0}, 1), (minute_balance{10000, 1, 500, 0}));
  // A limit lowered below what was used leaves no included minutes, not negative ones.
  EXPECT_EQ(consume(minute_balance{100, 300, 0, 0}, 50), (minute_balance{100, 300, 0, 50}));
}

TEST(subscription_rules, minutes_run_out_only_where_no_more_can_be_billed) {
  const minute_balance used_up{10000, 10000, 0, 0};
  EXPECT_TRUE(minutes_exhausted(used_up, 0));
  EXPECT_TRUE(minutes_exhausted(consume(used_up, 102), 0)) << "a call past the limit";
  EXPECT_FALSE(minutes_exhausted(used_up, 200)) << "billed at 0.02 a minute";
  EXPECT_FALSE(minutes_exhausted(minute_balance{10000, 9999, 0, 0}, 0));
  EXPECT_FALSE(minutes_exhausted(minute_balance{10000, 10000, 1, 0}, 0)) << "add-on minutes left";
  EXPECT_FALSE(minutes_exhausted(minute_balance{0, 0, 0, 5000}, 0)) << "not metered";
  EXPECT_TRUE(minutes_used_up(used_up));
  EXPECT_FALSE(minutes_used_up(minute_balance{0, 0, 0, 5000}));
}

TEST(subscription_rules, consumption_is_the_same_split_or_whole) {
  minute_balance start{1234, 0, 777, 0};
  minute_balance step = start;
  for (int i = 0; i < 300; ++i)
    step = consume(step, 7);
  EXPECT_EQ(step, consume(start, 2100));
}

TEST(subscription_rules, monthly_periods_count_from_the_anchor) {
  auto anchor = at("2026-01-31T10:00:00Z");
  EXPECT_EQ(add_intervals(anchor, billing_interval::month, 1), at("2026-02-28T10:00:00Z"));
  EXPECT_EQ(add_intervals(anchor, billing_interval::month, 2), at("2026-03-31T10:00:00Z"));
  EXPECT_EQ(add_intervals(anchor, billing_interval::month, 13), at("2027-02-28T10:00:00Z"));
  EXPECT_EQ(add_intervals(at("2028-02-29T00:00:00Z"), billing_interval::year, 1),
            at("2029-02-28T00:00:00Z"));
  EXPECT_EQ(add_intervals(anchor, billing_interval::week, 2), at("2026-02-14T10:00:00Z"));
  EXPECT_EQ(add_intervals(anchor, billing_interval::day, 1), at("2026-02-01T10:00:00Z"));
  EXPECT_EQ(next_period_end(anchor, billing_interval::month, at("2026-02-28T10:00:00Z")),
            at("2026-03-31T10:00:00Z"));
  EXPECT_EQ(next_period_end(anchor, billing_interval::month, at("2026-03-31T10:00:00Z")),
            at("2026-04-30T10:00:00Z"));
  EXPECT_EQ(next_period_end(anchor, billing_interval::day, at("2026-03-01T10:00:00Z")),
            at("2026-03-02T10:00:00Z"));
  EXPECT_EQ(next_period_end(anchor, billing_interval::year, at("2027-01-31T10:00:00Z")),
            at("2028-01-31T10:00:00Z"));
}

TEST(subscription_rules, interval_names_default_to_month) {
  EXPECT_EQ(interval_of(std::string{"day"}), billing_interval::day);
  EXPECT_EQ(interval_of(std::string{"week"}), billing_interval::week);
  EXPECT_EQ(interval_of(std::string{"year"}), billing_interval::year);
  EXPECT_EQ(interval_of(std::nullopt), billing_interval::month);
}

TEST(subscription_rules, amounts_are_exact_and_round_half_up) {
  // 12.34 minutes at 0.0125 = 0.15425 -> 0.15
  EXPECT_EQ(overage_cents(1234, 125), 15);
  // 100 minutes at 0.0125 = 1.25 exactly
  EXPECT_EQ(overage_cents(10000, 125), 125);
  // 0.04 minutes at 0.125 = 0.005 -> 0.01 (half up)
  EXPECT_EQ(overage_cents(4, 1250), 1);
  // Ten billion minutes at 1.0000 stay exact (the product exceeds 64 bits).
  EXPECT_EQ(overage_cents(1'000'000'000'000, 10'000), 1'000'000'000'000);
  EXPECT_EQ(overage_cents(922'337'203'685'477, 99'999), 9'223'279'803'134'401);
  EXPECT_EQ(flat_cents({490000, 50}), 4900 + 1); // 49 + 0.005 -> 49.01
  EXPECT_EQ(flat_cents({}), 0);
}

TEST(subscription_rules, a_new_payment_requests_fields_agree_with_each_other) {
  auto messages = [](const payment_request_draft& d) {
    field_errors errors;
    validate_payment_request(d, errors);
    std::vector<std::string> out;
    for (const auto& [field, list] : errors.entries())
      for (const auto& m : list)
        out.push_back(field + ": " + m);
    return out;
  };
  const auto t0 = at("2026-01-01T00:00:00Z");
  const auto t1 = at("2026-02-01T00:00:00Z");
  EXPECT_TRUE(messages({.type = "SUBSCRIPTION",
                        .names_subscription = true,
                        .has_grace_period = true,
                        .period_start = t0,
                        .period_end = t1})
                  .empty());
  EXPECT_TRUE(messages({.type = "ONE_TIME", .period_start = t0, .period_end = t0}).empty());
  EXPECT_EQ(messages({.type = "ADDON", .period_start = t1, .period_end = t0}),
            std::vector<std::string>{"period_end: Must not be before period_start."});
  EXPECT_EQ(
      messages({.type = "OVERAGE"}),
      std::vector<std::string>{"subscription_id: Required for SUBSCRIPTION and OVERAGE requests."});
  EXPECT_EQ(messages({.type = "ONE_TIME", .has_grace_period = true}),
            std::vector<std::string>{
                "grace_period_ends_at: Only SUBSCRIPTION and OVERAGE requests have one."});
  // A type that did not parse is judged by its own field only.
  EXPECT_TRUE(messages({.type = "", .has_grace_period = true}).empty());
}

} // namespace
} // namespace vcs::domain
