#include "domain/forecast.hpp"
#include "domain/phone_number_pool.hpp"

#include <gtest/gtest.h>

namespace vcs::domain {
namespace {

using namespace std::chrono_literals;

timestamp at(const char* iso) {
  return *parse_iso8601(iso);
}

std::vector<pool_number> numbers(std::initializer_list<int32_t> calls) {
  std::vector<pool_number> out;
  for (auto n : calls)
    out.push_back({"pn_" + std::to_string(out.size()), n});
  return out;
}

TEST(phone_number_pool, the_least_used_number_below_the_cap_places_the_call) {
  EXPECT_EQ(pick_pool_number(numbers({3, 1, 2}), 5, std::nullopt), 1u);
  EXPECT_EQ(pick_pool_number(numbers({1, 1, 1}), 5, std::nullopt), 0u) << "earlier on a tie";
  EXPECT_EQ(pick_pool_number(numbers({5, 4, 5}), 5, std::nullopt), 1u) << "at the cap: passed";
  EXPECT_EQ(pick_pool_number(numbers({5, 5}), 5, std::nullopt), std::nullopt);
  EXPECT_EQ(pick_pool_number({}, 5, std::nullopt), std::nullopt);
}

TEST(phone_number_pool, a_leads_next_attempt_comes_from_another_number_when_there_is_one) {
  EXPECT_EQ(pick_pool_number(numbers({0, 3}), 5, "pn_0"), 1u) << "even a busier one";
  EXPECT_EQ(pick_pool_number(numbers({0, 5}), 5, "pn_0"), 0u) << "the others are at their cap";
  EXPECT_EQ(pick_pool_number(numbers({2}), 5, "pn_0"), 0u) << "a pool of one";
  EXPECT_EQ(pick_pool_number(numbers({5, 5}), 5, "pn_0"), std::nullopt);
  EXPECT_EQ(pick_pool_number(numbers({1, 1}), 5, "pn_gone"), 0u) << "a number since removed";
}

TEST(phone_number_pool, the_capacity_counts_what_is_left_below_each_cap) {
  phone_number_pool p;
  p.daily_cap_per_number = 4;
  p.numbers = numbers({1, 4, 6});
  EXPECT_EQ(pool_calls_left(p.numbers, 4), 3);
  p.timezone = "America/New_York";
  // 03:00Z on the 2nd is 22:00 on the 1st in New York: its day renews at
  // 05:00Z.
  auto c = capacity_of(p, at("2030-01-02T03:00:00Z"));
  EXPECT_EQ(c.numbers, 3);
  EXPECT_EQ(c.calls_per_day, 12);
  EXPECT_EQ(c.calls_left_today, 3);
  EXPECT_EQ(c.next_day, at("2030-01-02T05:00:00Z"));
}

TEST(phone_number_pool, fields_are_checked_as_documented) {
  pool_fields f;
  auto named = [](const field_errors& e) {
    std::vector<std::string> out;
    for (const auto& [field, _] : e.entries())
      out.push_back(field);
    return out;
  };
  using names = std::vector<std::string>;
  EXPECT_EQ(named(validate_pool(f, true)), (names{"name", "phone_number_ids"}));
  EXPECT_TRUE(validate_pool(f, false).empty()) << "an update changes what it gives";
  f.name = "East";
  f.phone_number_ids = std::vector<std::string>{"pn_1", "pn_2"};
  f.daily_cap_per_number = pool_daily_cap_max;
  f.timezone = "Europe/Berlin";
  EXPECT_TRUE(validate_pool(f, true).empty());
  f.phone_number_ids->push_back("pn_1");
  f.daily_cap_per_number = 0;
  f.timezone = "Nowhere/Else";
  EXPECT_EQ(named(validate_pool(f, true)),
            (names{"phone_number_ids", "daily_cap_per_number", "timezone"}));
  f = {};
  f.phone_number_ids = std::vector<std::string>(pool_numbers_max + 1, "x");
  EXPECT_EQ(named(validate_pool(f, false)), (names{"phone_number_ids"}));
}

TEST(phone_number_pool, a_pool_campaign_without_numbers_or_calls_left_is_refused) {
  dial_policy p; // UTC, every day, all day
  campaign_dial_facts c{campaign_status::active, false, true, false};
  const auto now = at("2030-01-02T15:00:00Z");
  c.pool = campaign_dial_facts::pool_capacity{2, 10, 1, at("2030-01-03T00:00:00Z")};
  EXPECT_EQ(campaign_refusal(c, p, now), std::nullopt);
  c.pool->calls_left_today = 0;
  EXPECT_EQ(campaign_refusal(c, p, now), dial_state::numbers_at_daily_cap);
  lead_call_state s;
  auto v = lead_dial_state(c, campaign_refusal(c, p, now), 1, p, s, {"+12125550100"}, false, now);
  EXPECT_EQ(v.state, dial_state::numbers_at_daily_cap);
  EXPECT_EQ(v.next_dial_at, at("2030-01-03T00:00:00Z")) << "the pool's next day";
  c.pool->numbers = 0;
  EXPECT_EQ(campaign_refusal(c, p, now), dial_state::no_phone_number);
  c.has_voice_provider = false;
  EXPECT_EQ(campaign_refusal(c, p, now), dial_state::no_voice_provider) << "the provider first";
}

TEST(phone_number_pool, the_forecast_places_at_most_the_pools_calls_a_day) {
  dial_policy p;
  p.max_call_attempts = 1;
  p.max_daily_attempts = 1;
  p.min_gap = 0min;
  campaign_dial_facts c{campaign_status::active, false, true, false};
  const auto now = at("2030-01-02T00:00:00Z");
  lead_tally leads;
  leads.callable = 100;
  call_sample calls{50, 1.0, 50}; // one-second calls, all answered
  const auto unbounded = forecast_of(leads, calls, c, p, 10, 10, now);
  ASSERT_EQ(unbounded.outlook, forecast_outlook::finishing);
  EXPECT_LT(*unbounded.estimated_finish_at, at("2030-01-02T01:00:00Z"));
  // 40 calls a day, 10 of them left today: 10 + 40 + 40 + 10 over four days.
  c.pool = campaign_dial_facts::pool_capacity{4, 40, 10, at("2030-01-03T00:00:00Z")};
  const auto pooled = forecast_of(leads, calls, c, p, 10, 10, now);
  ASSERT_EQ(pooled.outlook, forecast_outlook::finishing);
  EXPECT_GE(*pooled.estimated_finish_at, at("2030-01-05T00:00:00Z"));
  EXPECT_LT(*pooled.estimated_finish_at, at("2030-01-06T00:00:00Z"));
  c.pool->numbers = 0;
  EXPECT_EQ(forecast_of(leads, calls, c, p, 10, 10, now).outlook,
            forecast_outlook::no_phone_number);
}

} // namespace
} // namespace vcs::domain
