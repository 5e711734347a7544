#include "domain/forecast.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <map>

namespace vcs::domain {
namespace {

using namespace std::chrono_literals;

timestamp at(const char* iso) {
  return *parse_iso8601(iso);
}

// UTC, the whole day, every day: the defaults of a campaign.
dial_policy all_day() {
  return dial_policy{};
}

// New York, 09:00-17:00 every day.
dial_policy new_york() {
  dial_policy p;
  p.zone = date::locate_zone("America/New_York");
  p.daily_start = 9h;
  p.daily_end = 17h;
  return p;
}

campaign_dial_facts with_status(campaign_status s) {
  return {s, false, true, false};
}

std::map<dial_state, int64_t> skipped(const forecast& f) {
  return {f.skipped.begin(), f.skipped.end()};
}

// `n` ended calls of `seconds` on a line each, `answered` of them answered.
call_sample sample(int64_t n, double seconds, int64_t answered) {
  return {n, seconds, answered};
}

// 2030-01-02 is a Wednesday; 13:00Z is 08:00 in New York.
const timestamp before_ny_opens = at("2030-01-02T13:00:00Z");

TEST(forecast, a_draft_holds_its_ready_leads_and_is_forecast_as_if_started_now) {
  lead_tally t;
  t.do_not_call = 2;
  t.invalid = 1;
  t.answered = 3;
  t.failed = 1;
  t.callable = 10;
  const auto now = at("2030-01-02T12:00:00Z");
  auto f = forecast_of(t, {}, with_status(campaign_status::draft), all_day(), 5, 5, now);
  EXPECT_EQ(f.total_leads, 17);
  EXPECT_EQ(f.eligible_now, 0);
  EXPECT_EQ(f.open_leads, 10);
  auto s = skipped(f);
  EXPECT_EQ(s.size(), 16u) << "every state but eligible and the calling rules' own";
  EXPECT_EQ(s.count(dial_state::eligible), 0u);
  EXPECT_EQ(s[dial_state::campaign_not_active], 10);
  EXPECT_EQ(s[dial_state::do_not_call], 2);
  EXPECT_EQ(s[dial_state::invalid], 1);
  EXPECT_EQ(s[dial_state::answered], 3);
  EXPECT_EQ(s[dial_state::attempts_exhausted], 1);
  EXPECT_EQ(s[dial_state::waiting_gap], 0);
  // Nothing measured: 60 s a call, 30 % answered; 3 attempts each.
  EXPECT_FALSE(f.line_seconds_measured);
  EXPECT_FALSE(f.answer_rate_measured);
  EXPECT_EQ(f.line_seconds, assumed_line_seconds);
  EXPECT_EQ(f.answer_rate, assumed_answer_rate);
  EXPECT_EQ(f.expected_calls, 22) << "10 * (1 + 0.7 + 0.49) = 21.9";
  // Five lines would place 300 calls an hour; ten leads with a 60-minute
  // gap take at most one call each per 61 minutes.
  const double per_hour = 10 * 3600.0 / (3600 + 60);
  EXPECT_DOUBLE_EQ(f.calls_per_hour, per_hour);
  EXPECT_EQ(f.outlook, forecast_outlook::finishing);
  ASSERT_TRUE(f.estimated_finish_at);
  const std::chrono::duration<double, std::ratio<3600>> hours{22 / per_hour};
  EXPECT_EQ(*f.estimated_finish_at, now + std::chrono::round<std::chrono::microseconds>(hours));
}

TEST(forecast, waiting_leads_follow_the_rule_order_and_busy_lines_hold_the_rest) {
  lead_tally t;
  t.failed = 4;
  t.callable = 20;
  t.exhausted = 2;
  t.daily_capped = 5;
  t.in_gap = 3;
  const auto now = at("2030-01-02T12:00:00Z");
  const auto active = with_status(campaign_status::active);
  auto f = forecast_of(t, {}, active, all_day(), 5, 2, now);
  auto s = skipped(f);
  EXPECT_EQ(f.open_leads, 18);
  EXPECT_EQ(s[dial_state::attempts_exhausted], 6) << "FAILED and over a lowered maximum";
  EXPECT_EQ(s[dial_state::daily_cap_reached], 5);
  EXPECT_EQ(s[dial_state::waiting_gap], 3);
  EXPECT_EQ(f.eligible_now, 10);
  EXPECT_EQ(s[dial_state::lines_busy], 0);

  auto busy = forecast_of(t, {}, active, all_day(), 5, 0, now);
  EXPECT_EQ(busy.eligible_now, 0);
  EXPECT_EQ(skipped(busy)[dial_state::lines_busy], 10);

  // Outside its hours the campaign holds every ready lead, waiting or not,
  // as lead_dial_state puts the campaign's refusal first.
  auto closed = forecast_of(t, {}, active, new_york(), 5, 5, before_ny_opens);
  EXPECT_EQ(skipped(closed)[dial_state::outside_window], 18);
  EXPECT_EQ(skipped(closed)[dial_state::daily_cap_reached], 0);
  EXPECT_EQ(closed.eligible_now, 0);
}

TEST(forecast, measured_calls_replace_the_assumptions) {
  lead_tally t;
  t.callable = 4;
  t.callable_attempts = 4; // one attempt made each, two left of three
  const auto now = at("2030-01-02T12:00:00Z");
  const auto active = with_status(campaign_status::active);
  auto f = forecast_of(t, sample(12, 90, 6), active, all_day(), 5, 5, now);
  EXPECT_TRUE(f.line_seconds_measured);
  EXPECT_TRUE(f.answer_rate_measured);
  EXPECT_EQ(f.line_seconds, 90);
  EXPECT_EQ(f.answer_rate, 0.5);
  EXPECT_EQ(f.expected_calls, 6) << "4 * (1 + 0.5)";
  auto few = forecast_of(t, sample(min_measured_calls - 1, 90, 6), active, all_day(), 5, 5, now);
  EXPECT_FALSE(few.line_seconds_measured);
  EXPECT_EQ(few.line_seconds, assumed_line_seconds);
  EXPECT_EQ(few.answer_rate, assumed_answer_rate);
}

// New York's hours, one attempt a lead, one a day.
dial_policy one_attempt_in_new_york() {
  auto p = new_york();
  p.max_call_attempts = 1;
  p.max_daily_attempts = 1;
  return p;
}

// One line, an hour a call, never answered: one call an hour.
const call_sample hourly = sample(20, 3600, 0);
const campaign_dial_facts active = with_status(campaign_status::active);

TEST(forecast, the_estimate_walks_the_calling_hours_and_the_daily_caps) {
  auto p = one_attempt_in_new_york();
  lead_tally t;
  t.callable = 10;
  // Eight calls on the first day (09:00-17:00), two on the next.
  auto f = forecast_of(t, hourly, active, p, 1, 1, before_ny_opens);
  EXPECT_EQ(f.expected_calls, 10);
  EXPECT_EQ(f.calls_per_hour, 1);
  EXPECT_EQ(f.outlook, forecast_outlook::finishing);
  EXPECT_EQ(f.estimated_finish_at, at("2030-01-03T16:00:00Z"));

  // Three leads, two attempts, one a day: three calls a day.
  p.max_call_attempts = 2;
  t.callable = 3;
  f = forecast_of(t, hourly, active, p, 1, 1, before_ny_opens);
  EXPECT_EQ(f.expected_calls, 6);
  EXPECT_EQ(f.estimated_finish_at, at("2030-01-03T17:00:00Z"));
  // When all three were called today, today places none.
  t.daily_capped = 3;
  t.callable_attempts = 3;
  f = forecast_of(t, hourly, active, p, 1, 1, at("2030-01-02T15:00:00Z"));
  EXPECT_EQ(f.expected_calls, 3);
  EXPECT_EQ(f.estimated_finish_at, at("2030-01-03T17:00:00Z"));

  // A start date ahead: from its first opening.
  p.start_date = date::local_days{date::year{2030} / 1 / 7};
  t = {};
  t.callable = 3;
  f = forecast_of(t, hourly, with_status(campaign_status::scheduled), p, 1, 1, before_ny_opens);
  EXPECT_EQ(f.estimated_finish_at, at("2030-01-08T17:00:00Z"));
}

TEST(forecast, what_keeps_a_campaign_from_finishing_is_named) {
  const auto p = one_attempt_in_new_york();
  lead_tally t;
  t.callable = 10;
  auto ends = p;
  ends.end_date = date::local_days{date::year{2030} / 1 / 2};
  auto f = forecast_of(t, hourly, active, ends, 1, 1, before_ny_opens);
  EXPECT_EQ(f.outlook, forecast_outlook::past_end_date);
  EXPECT_FALSE(f.estimated_finish_at);
  EXPECT_EQ(f.calls_left_at_end, 2);

  auto closed = p;
  closed.days_mask = 0;
  EXPECT_EQ(forecast_of(t, hourly, active, closed, 1, 1, before_ny_opens).outlook,
            forecast_outlook::no_calling_window);
  EXPECT_EQ(forecast_of(t, hourly, active, p, 0, 0, before_ny_opens).outlook,
            forecast_outlook::no_voice_provider);
  EXPECT_EQ(
      forecast_of(t, hourly, with_status(campaign_status::ended), p, 1, 1, before_ny_opens).outlook,
      forecast_outlook::campaign_ended);
  EXPECT_EQ(forecast_of(lead_tally{}, hourly, active, p, 1, 1, before_ny_opens).outlook,
            forecast_outlook::nothing_to_dial);
  t.callable = 100'000;
  auto slow = forecast_of(t, hourly, active, p, 1, 1, before_ny_opens);
  EXPECT_EQ(slow.outlook, forecast_outlook::beyond_horizon) << "8 calls a day for 100,000 leads";
  EXPECT_FALSE(slow.estimated_finish_at);
}

} // namespace
} // namespace vcs::domain
