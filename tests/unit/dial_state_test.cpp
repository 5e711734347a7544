#include "domain/dial_state.hpp"

#include <gtest/gtest.h>

namespace vcs::domain {
namespace {

using namespace std::chrono_literals;

timestamp at(const char* iso) {
  return *parse_iso8601(iso);
}

// New York, 09:00-17:00 every day, 3 attempts, 2 a day, a 60-minute gap.
dial_policy new_york() {
  dial_policy p;
  p.zone = date::locate_zone("America/New_York");
  p.daily_start = 9h;
  p.daily_end = 17h;
  p.max_call_attempts = 3;
  p.max_daily_attempts = 2;
  return p;
}

campaign_dial_facts active() {
  return {campaign_status::active, false, true, false};
}

// 2030-01-02 is a Wednesday; 15:00Z is 10:00 in New York (window open).
const timestamp noon_ny = at("2030-01-02T17:00:00Z");
const timestamp open_ny = at("2030-01-02T15:00:00Z");
const std::string phone = "+12125550100";

TEST(dial_state, the_campaign_refuses_in_the_dialers_order) {
  auto p = new_york();
  EXPECT_EQ(campaign_refusal(active(), p, open_ny), std::nullopt);
  auto c = active();
  c.status = campaign_status::ended;
  EXPECT_EQ(campaign_refusal(c, p, open_ny), dial_state::campaign_ended);
  c = active();
  c.status = campaign_status::paused;
  c.billing_blocked = true;
  EXPECT_EQ(campaign_refusal(c, p, open_ny), dial_state::campaign_not_active) << "status first";
  c.status = campaign_status::active;
  EXPECT_EQ(campaign_refusal(c, p, open_ny), dial_state::billing_blocked);
  c = active();
  c.has_voice_provider = false;
  EXPECT_EQ(campaign_refusal(c, p, open_ny), dial_state::no_voice_provider);
  EXPECT_EQ(campaign_refusal(active(), p, at("2030-01-02T12:00:00Z")), dial_state::outside_window);
  c = active();
  c.status = campaign_status::scheduled;
  EXPECT_EQ(campaign_refusal(c, p, open_ny), dial_state::campaign_not_active)
      << "SCHEDULED without a start date waits for a person";
  p.start_date = date::local_days{date::year{2030} / 2 / 1};
  c.has_start_date = true;
  EXPECT_EQ(campaign_refusal(c, p, open_ny), dial_state::campaign_not_started);
  EXPECT_FALSE(starts_now(c, p, open_ny));
  EXPECT_TRUE(starts_now(c, p, at("2030-02-01T15:00:00Z")));
  p.end_date = date::local_days{date::year{2030} / 2 / 1};
  EXPECT_EQ(campaign_refusal(active(), p, at("2030-02-02T15:00:00Z")), dial_state::campaign_ended);
}

TEST(dial_state, a_leads_lasting_refusals_come_before_the_campaigns) {
  auto p = new_york();
  lead_call_state s;
  auto view = [&](std::optional<dial_state> refused = std::nullopt, bool listed = false) {
    return lead_dial_state(campaign_dial_facts{}, refused, 1, p, s, {phone}, listed, open_ny);
  };
  EXPECT_EQ(view().state, dial_state::eligible);
  EXPECT_EQ(view().next_dial_at, open_ny);
  EXPECT_EQ(view(std::nullopt, true).state, dial_state::do_not_call);
  s.answered = true;
  EXPECT_EQ(view(dial_state::campaign_not_active).state, dial_state::answered);
  s = {};
  s.status = call_status::queued;
  EXPECT_EQ(view().state, dial_state::in_call);
  s = {};
  s.attempts_made = 3;
  EXPECT_EQ(view().state, dial_state::attempts_exhausted);
  EXPECT_EQ(view().next_dial_at, std::nullopt);
  s = {};
  EXPECT_EQ(view(dial_state::billing_blocked).state, dial_state::billing_blocked);
  EXPECT_EQ(view(dial_state::billing_blocked).next_dial_at, std::nullopt);
  EXPECT_EQ(
      lead_dial_state(campaign_dial_facts{}, std::nullopt, 0, p, s, {phone}, false, open_ny).state,
      dial_state::lines_busy);
}

TEST(dial_state, a_waiting_lead_says_when_it_may_be_called) {
  auto p = new_york();
  lead_call_state s;
  // The gap ends at 18:00 New York, after the window: called at 09:00 next day.
  s.next_attempt_after = at("2030-01-02T23:00:00Z");
  auto gap = lead_dial_state(campaign_dial_facts{}, std::nullopt, 1, p, s, {phone}, false, open_ny);
  EXPECT_EQ(gap.state, dial_state::waiting_gap);
  EXPECT_EQ(gap.next_dial_at, at("2030-01-03T14:00:00Z"));
  // Two attempts today (New York's day): again at 09:00 tomorrow.
  s = {};
  s.daily_attempts = 2;
  s.daily_attempts_day = "2030-01-02";
  auto capped =
      lead_dial_state(campaign_dial_facts{}, std::nullopt, 1, p, s, {phone}, false, noon_ny);
  EXPECT_EQ(capped.state, dial_state::daily_cap_reached);
  EXPECT_EQ(capped.next_dial_at, at("2030-01-03T14:00:00Z"));
  // Before the window: the campaign refuses until it opens.
  s = {};
  auto early = at("2030-01-02T12:00:00Z");
  auto closed = lead_dial_state(campaign_dial_facts{}, campaign_refusal(active(), p, early), 1, p,
                                s, {phone}, false, early);
  EXPECT_EQ(closed.state, dial_state::outside_window);
  EXPECT_EQ(closed.next_dial_at, at("2030-01-02T14:00:00Z"));
  // A next time at or after the end date is none.
  p.end_date = date::local_days{date::year{2030} / 1 / 2};
  EXPECT_EQ(lead_dial_state(campaign_dial_facts{}, std::nullopt, 1, p, s, {phone}, false, open_ny)
                .next_dial_at,
            open_ny);
  s.next_attempt_after = at("2030-01-02T23:00:00Z");
  EXPECT_EQ(lead_dial_state(campaign_dial_facts{}, std::nullopt, 1, p, s, {phone}, false, open_ny)
                .next_dial_at,
            std::nullopt);
}

TEST(dial_state, in_lead_time_a_number_waits_for_its_own_hours) {
  auto p = new_york();
  p.lead_local_time = true;
  lead_call_state s;
  // 15:00Z: 10:00 in New York, 07:00 in Los Angeles.
  const std::string la = "+13105550100";
  EXPECT_EQ(campaign_refusal(active(), p, open_ny), std::nullopt);
  auto v = lead_dial_state(campaign_dial_facts{}, std::nullopt, 1, p, s, {la}, false, open_ny);
  EXPECT_EQ(v.state, dial_state::outside_window);
  EXPECT_EQ(v.next_dial_at, at("2030-01-02T17:00:00Z"));
  EXPECT_EQ(
      lead_dial_state(campaign_dial_facts{}, std::nullopt, 1, p, s, {phone}, false, open_ny).state,
      dial_state::eligible);
}

} // namespace
} // namespace vcs::domain
