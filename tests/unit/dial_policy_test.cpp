#include "domain/dial_policy.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

// Expected local times below were cross-checked with Python's zoneinfo.

namespace vcs::domain {
namespace {

using namespace std::chrono_literals;

timestamp at(const char* iso) {
  return *parse_iso8601(iso);
}

const date::time_zone* zone(const char* name) {
  return date::locate_zone(name);
}

date::local_days day(int y, unsigned m, unsigned d) {
  return date::local_days{date::year{y} / date::month{m} / date::day{d}};
}

constexpr uint8_t bit(date::weekday wd) {
  return static_cast<uint8_t>(1u << wd.c_encoding());
}

constexpr uint8_t weekdays = bit(date::Monday) | bit(date::Tuesday) | bit(date::Wednesday) |
                             bit(date::Thursday) | bit(date::Friday);

dial_policy window(const char* zone_name, std::chrono::minutes start, std::chrono::minutes end,
                   uint8_t days = 0x7f) {
  dial_policy p;
  p.zone = zone(zone_name);
  p.daily_start = start;
  p.daily_end = end;
  p.days_mask = days;
  return p;
}

TEST(dial_policy, policy_of_a_campaign_without_schedule_uses_defaults) {
  const dial_policy p = policy_of(campaign{});
  EXPECT_EQ(p.zone, date::locate_zone("UTC"));
  EXPECT_EQ(p.start_date, std::nullopt);
  EXPECT_EQ(p.end_date, std::nullopt);
  EXPECT_EQ(p.days_mask, 0x7f);
  EXPECT_EQ(p.daily_start, 0min);
  EXPECT_EQ(p.daily_end, 24h);
  EXPECT_EQ(p.max_call_attempts, 3);
  EXPECT_EQ(p.max_daily_attempts, 3);
  EXPECT_EQ(p.min_gap, 60min);
  EXPECT_FALSE(p.voicemail_is_answer);
  EXPECT_FALSE(p.lead_local_time);
  EXPECT_EQ(phase_at(p, at("2000-01-01T00:00:00Z")), campaign_phase::running);
}

TEST(dial_policy, policy_of_reads_every_schedule_field) {
  campaign c;
  c.timezone = "Europe/Berlin";
  c.start_date = "2026-03-01";
  c.end_date = "2026-03-31";
  c.days_of_week = std::vector<std::string>{"MONDAY", "WEDNESDAY", "SUNDAY"};
  c.daily_start_time = "09:15";
  c.daily_end_time = "17:30";
  c.max_call_attempts = 7;
  c.min_gap_between_attempts = 45;
  c.consider_voicemail_as_answered = true;
  const dial_policy p = policy_of(c, true);
  EXPECT_EQ(p.zone, zone("Europe/Berlin"));
  EXPECT_EQ(p.start_date, day(2026, 3, 1));
  EXPECT_EQ(p.end_date, day(2026, 3, 31));
  EXPECT_EQ(p.days_mask, bit(date::Monday) | bit(date::Wednesday) | bit(date::Sunday));
  EXPECT_EQ(p.daily_start, 9h + 15min);
  EXPECT_EQ(p.daily_end, 17h + 30min);
  EXPECT_EQ(p.max_call_attempts, 7);
  EXPECT_EQ(p.max_daily_attempts, 7); // defaults to max_call_attempts
  EXPECT_EQ(p.min_gap, 45min);        // the field is in minutes
  EXPECT_TRUE(p.voicemail_is_answer);
  EXPECT_TRUE(p.lead_local_time);

  c.max_daily_attempts = 2;
  EXPECT_EQ(policy_of(c).max_daily_attempts, 2);
}

TEST(dial_policy, policy_of_an_unknown_zone_falls_back_to_utc) {
  campaign c;
  c.timezone = "Mars/Olympus_Mons";
  EXPECT_EQ(policy_of(c).zone, date::locate_zone("UTC"));
}

TEST(dial_policy, phase_changes_at_local_midnights_far_from_utc) {
  // Kiritimati is UTC+14: local midnight of 2026-03-10 is 2026-03-09T10:00Z.
  dial_policy p;
  p.zone = zone("Pacific/Kiritimati");
  p.start_date = day(2026, 3, 10);
  p.end_date = day(2026, 3, 12);
  EXPECT_EQ(start_instant(p), at("2026-03-09T10:00:00Z"));
  EXPECT_EQ(end_instant(p), at("2026-03-12T10:00:00Z"));
  EXPECT_EQ(phase_at(p, at("2026-03-09T09:59:59.999999Z")), campaign_phase::before_start);
  EXPECT_EQ(phase_at(p, at("2026-03-09T10:00:00Z")), campaign_phase::running);
  EXPECT_EQ(phase_at(p, at("2026-03-12T09:59:59.999999Z")), campaign_phase::running);
  EXPECT_EQ(phase_at(p, at("2026-03-12T10:00:00Z")), campaign_phase::after_end);
}

TEST(dial_policy, phase_with_one_bound_only) {
  dial_policy p;
  p.end_date = day(2026, 3, 12); // UTC
  EXPECT_EQ(start_instant(p), std::nullopt);
  EXPECT_EQ(phase_at(p, at("1999-01-01T00:00:00Z")), campaign_phase::running);
  EXPECT_EQ(phase_at(p, at("2026-03-13T00:00:00Z")), campaign_phase::after_end);
}

TEST(dial_policy, start_on_a_skipped_midnight_is_the_transition) {
  // Chile springs forward at local midnight: 2026-09-06 00:00 does not
  // exist, the day starts at 01:00 -03 = 04:00Z.
  dial_policy p;
  p.zone = zone("America/Santiago");
  p.start_date = day(2026, 9, 6);
  EXPECT_EQ(start_instant(p), at("2026-09-06T04:00:00Z"));
  EXPECT_EQ(phase_at(p, at("2026-09-06T03:59:59Z")), campaign_phase::before_start);
}

TEST(dial_policy, window_open_by_weekday_and_time_of_day) {
  // Berlin is UTC+1 until 2026-03-29; 2026-03-13 is a Friday.
  const auto p = window("Europe/Berlin", 9h, 17h, weekdays);
  const auto* berlin = p.zone;
  EXPECT_FALSE(window_open(p, berlin, at("2026-03-13T07:59:59Z")));
  EXPECT_TRUE(window_open(p, berlin, at("2026-03-13T08:00:00Z"))); // start inclusive
  EXPECT_TRUE(window_open(p, berlin, at("2026-03-13T15:59:59Z")));
  EXPECT_FALSE(window_open(p, berlin, at("2026-03-13T16:00:00Z"))); // end exclusive
  EXPECT_FALSE(window_open(p, berlin, at("2026-03-14T10:00:00Z"))); // Saturday
  EXPECT_FALSE(window_open(p, berlin, at("2026-03-15T10:00:00Z"))); // Sunday
  EXPECT_TRUE(window_open(p, berlin, at("2026-03-16T10:00:00Z")));  // Monday
  // The same instants by UTC's clock: 08:30Z is before 09:00 there.
  EXPECT_FALSE(window_open(p, nullptr, at("2026-03-13T08:30:00Z")));
  EXPECT_TRUE(window_open(p, nullptr, at("2026-03-13T09:00:00Z")));
}

TEST(dial_policy, window_weekday_is_the_local_one) {
  // 2026-03-13T12:00Z is Friday in UTC but already Saturday in Kiritimati.
  const auto p = window("Pacific/Kiritimati", 0h, 24h, weekdays);
  EXPECT_FALSE(window_open(p, p.zone, at("2026-03-13T12:00:00Z")));
  EXPECT_TRUE(window_open(p, nullptr, at("2026-03-13T12:00:00Z")));
}

TEST(dial_policy, next_window_open_skips_the_weekend) {
  const auto p = window("Europe/Berlin", 9h, 17h, weekdays);
  EXPECT_EQ(next_window_open(p, p.zone, at("2026-03-13T16:30:00Z")), at("2026-03-16T08:00:00Z"));
  EXPECT_EQ(next_window_open(p, p.zone, at("2026-03-14T12:00:00Z")), at("2026-03-16T08:00:00Z"));
  // Already open: now itself; before the start: today's start.
  EXPECT_EQ(next_window_open(p, p.zone, at("2026-03-13T10:00:00Z")), at("2026-03-13T10:00:00Z"));
  EXPECT_EQ(next_window_open(p, p.zone, at("2026-03-13T06:00:00Z")), at("2026-03-13T08:00:00Z"));
}

TEST(dial_policy, next_window_open_finds_the_same_weekday_next_week) {
  const auto p = window("Europe/Berlin", 9h, 17h, bit(date::Friday));
  EXPECT_EQ(next_window_open(p, p.zone, at("2026-03-13T16:30:00Z")), at("2026-03-20T08:00:00Z"));
}

TEST(dial_policy, next_window_open_none_without_days_or_hours) {
  EXPECT_EQ(next_window_open(window("UTC", 9h, 17h, 0), nullptr, at("2026-03-13T00:00:00Z")),
            std::nullopt);
  EXPECT_EQ(next_window_open(window("UTC", 9h, 9h), nullptr, at("2026-03-13T00:00:00Z")),
            std::nullopt);
}

TEST(dial_policy, next_window_open_on_spring_forward_day) {
  // 2026-03-08, New York: 02:00 EST jumps to 03:00 EDT at 07:00Z; a 02:30
  // start does not exist that day and opens at the jump.
  const auto p = window("America/New_York", 2h + 30min, 10h);
  EXPECT_EQ(next_window_open(p, p.zone, at("2026-03-08T05:00:00Z")), at("2026-03-08T07:00:00Z"));
  EXPECT_FALSE(window_open(p, p.zone, at("2026-03-08T06:59:59Z")));
  EXPECT_TRUE(window_open(p, p.zone, at("2026-03-08T07:00:00Z")));
  // The next day the start exists again: 02:30 EDT = 06:30Z.
  EXPECT_EQ(next_window_open(p, p.zone, at("2026-03-08T15:00:00Z")), at("2026-03-09T06:30:00Z"));

  // A window inside the skipped hour never opens that day.
  const auto skipped = window("America/New_York", 2h, 2h + 45min);
  EXPECT_EQ(next_window_open(skipped, skipped.zone, at("2026-03-08T05:00:00Z")),
            at("2026-03-09T06:00:00Z"));
}

TEST(dial_policy, next_window_open_on_fall_back_day) {
  // 2026-11-01, New York: 02:00 EDT falls back to 01:00 EST at 06:00Z, so
  // 01:30-01:45 happens twice: 05:30Z (EDT) and 06:30Z (EST).
  const auto p = window("America/New_York", 1h + 30min, 1h + 45min);
  EXPECT_EQ(next_window_open(p, p.zone, at("2026-11-01T04:00:00Z")), at("2026-11-01T05:30:00Z"));
  EXPECT_EQ(next_window_open(p, p.zone, at("2026-11-01T05:50:00Z")), at("2026-11-01T06:30:00Z"));
  EXPECT_EQ(next_window_open(p, p.zone, at("2026-11-01T06:50:00Z")), at("2026-11-02T06:30:00Z"));

  // The fall-back itself can reopen a window: at 01:25 EDT a 00:30-01:20
  // window is closed until the clock goes back to 01:00 EST (06:00Z).
  const auto reopened = window("America/New_York", 30min, 1h + 20min);
  EXPECT_EQ(next_window_open(reopened, reopened.zone, at("2026-11-01T05:25:00Z")),
            at("2026-11-01T06:00:00Z"));
}

TEST(dial_policy, next_window_open_with_odd_offsets) {
  // Kathmandu is UTC+05:45: 09:00 local is 03:15Z.
  const auto kathmandu = window("Asia/Kathmandu", 9h, 17h);
  EXPECT_EQ(next_window_open(kathmandu, kathmandu.zone, at("2026-03-10T00:00:00Z")),
            at("2026-03-10T03:15:00Z"));
  // Chatham is UTC+13:45 in March (southern summer): 09:00 on 2026-03-11
  // is 2026-03-10T19:15Z.
  const auto chatham = window("Pacific/Chatham", 9h, 17h);
  EXPECT_EQ(next_window_open(chatham, chatham.zone, at("2026-03-10T12:00:00Z")),
            at("2026-03-10T19:15:00Z"));
  EXPECT_FALSE(window_open(chatham, chatham.zone, at("2026-03-10T19:14:59Z")));
  EXPECT_TRUE(window_open(chatham, chatham.zone, at("2026-03-10T19:15:00Z")));
}

TEST(dial_policy, local_day_is_in_the_given_zone) {
  const auto now = at("2026-03-10T10:30:00Z");
  EXPECT_EQ(local_day(nullptr, now), "2026-03-10");
  EXPECT_EQ(local_day(zone("Pacific/Kiritimati"), now), "2026-03-11");
  EXPECT_EQ(local_day(zone("Pacific/Pago_Pago"), at("2026-03-10T10:30:00Z")), "2026-03-09");
  EXPECT_EQ(local_day(zone("Asia/Kolkata"), at("2026-12-31T18:30:00Z")), "2027-01-01");
}

TEST(dial_policy, lead_local_time_uses_the_number_zone) {
  // 13:30Z on 2026-03-10: New York 09:30 EDT (in hours), Los Angeles 06:30
  // PDT and Chicago, the campaign's zone, 08:30 CDT (not).
  auto p = window("America/Chicago", 9h, 17h);
  const auto now = at("2026-03-10T13:30:00Z");
  constexpr std::string_view new_york = "+12125550123";
  constexpr std::string_view los_angeles = "+13105550123";
  EXPECT_FALSE(can_dial_now(p, {new_york}, now));
  EXPECT_FALSE(can_dial_now(p, {los_angeles}, now));
  p.lead_local_time = true;
  EXPECT_TRUE(can_dial_now(p, {new_york}, now));
  EXPECT_FALSE(can_dial_now(p, {los_angeles}, now));
  // 16:30Z: 09:30 in Los Angeles as well.
  EXPECT_TRUE(can_dial_now(p, {los_angeles}, at("2026-03-10T16:30:00Z")));
}

TEST(dial_policy, number_with_several_zones_needs_all_in_hours) {
  // +1 800 only matches the prefix "1": every +1 zone, Pacific/Guam (UTC+10)
  // to Pacific/Pago_Pago (UTC-11). With a 01:00-24:00 window, 14:30Z on
  // 2026-01-15 is 09:30 in New York but 00:30 in Guam.
  auto p = window("America/New_York", 1h, 24h);
  p.lead_local_time = true;
  constexpr std::string_view toll_free = "+18005550123";
  const auto guam_after_midnight = at("2026-01-15T14:30:00Z");
  EXPECT_FALSE(can_dial_now(p, {toll_free}, guam_after_midnight));
  EXPECT_TRUE(can_dial_now(p, {"+12125550123"}, guam_after_midnight));
  // 16:00Z: 02:00 in Guam, 05:00 in Pago Pago, 12:30 in St John's.
  EXPECT_TRUE(can_dial_now(p, {toll_free}, at("2026-01-15T16:00:00Z")));

  // With 09:00-21:00 the number is callable only in a short evening span in
  // New York: 22:30Z is 17:30 there but 08:30 in Guam; from 23:00Z Guam is
  // at 09:00 and Pago Pago at 12:00, St John's at 19:30.
  auto hours = window("America/New_York", 9h, 21h);
  hours.lead_local_time = true;
  EXPECT_FALSE(can_dial_now(hours, {toll_free}, at("2026-01-15T15:00:00Z")));
  EXPECT_FALSE(can_dial_now(hours, {toll_free}, at("2026-01-15T22:30:00Z")));
  EXPECT_TRUE(can_dial_now(hours, {toll_free}, at("2026-01-15T23:00:00Z")));
  hours.lead_local_time = false;
  EXPECT_TRUE(can_dial_now(hours, {toll_free}, at("2026-01-15T15:00:00Z")));
}

TEST(dial_policy, number_without_known_zones_uses_the_campaign_zone) {
  auto p = window("America/Chicago", 9h, 17h);
  p.lead_local_time = true;
  for (const std::string_view phone : {"+999123456", "+", "12125550123", "not a number"}) {
    EXPECT_FALSE(can_dial_now(p, {phone}, at("2026-03-10T13:30:00Z"))) << phone; // 08:30 CDT
    EXPECT_TRUE(can_dial_now(p, {phone}, at("2026-03-10T14:30:00Z"))) << phone;  // 09:30 CDT
  }
}

TEST(dial_policy, can_dial_now_needs_the_campaign_running) {
  auto p = window("Pacific/Kiritimati", 0h, 24h);
  p.start_date = day(2026, 3, 10);
  p.end_date = day(2026, 3, 10);
  EXPECT_FALSE(can_dial_now(p, {"+12125550123"}, at("2026-03-09T09:59:59Z")));
  EXPECT_TRUE(can_dial_now(p, {"+12125550123"}, at("2026-03-09T10:00:00Z")));
  EXPECT_FALSE(can_dial_now(p, {"+12125550123"}, at("2026-03-10T10:00:00Z")));
}

TEST(dial_policy, can_dial_at_adds_the_window_after_lead_refusals) {
  const auto p = window("Europe/Berlin", 9h, 17h, weekdays);
  const auto open = at("2026-03-13T10:00:00Z");
  const auto closed = at("2026-03-14T10:00:00Z");
  lead_call_state s;
  EXPECT_EQ(can_dial_at(s, p, {"+4930123456"}, open), dial_refusal::none);
  EXPECT_EQ(can_dial_at(s, p, {"+4930123456"}, closed), dial_refusal::outside_window);
  s.do_not_call = true;
  EXPECT_EQ(can_dial_at(s, p, {"+4930123456"}, closed), dial_refusal::do_not_call);
  s.do_not_call = false;
  s.next_attempt_after = open + 1h;
  EXPECT_EQ(can_dial_at(s, p, {"+4930123456"}, open), dial_refusal::too_soon);
}

} // namespace
} // namespace vcs::domain

namespace vcs::domain {
namespace {

// 09:00-17:00 New York time on weekdays; 2026-11-24 is a Tuesday (EST,
// UTC-5), so the window is 14:00-22:00 UTC that day.
dial_policy new_york_office_hours() {
  return window("America/New_York", 9h, 17h, weekdays);
}

TEST(next_dial_time, only_a_scheduled_or_active_campaign_with_work_dials) {
  auto p = new_york_office_hours();
  auto look = at("2026-11-24T15:00:00Z");
  auto lead = at("2026-11-24T15:00:00Z");
  EXPECT_EQ(next_dial_time(p, campaign_status::active, look, lead), look);
  EXPECT_EQ(next_dial_time(p, campaign_status::scheduled, look, lead), look);
  for (auto s : {campaign_status::draft, campaign_status::paused, campaign_status::ended})
    EXPECT_EQ(next_dial_time(p, s, look, lead), std::nullopt) << to_string(s);
  EXPECT_EQ(next_dial_time(p, campaign_status::active, std::nullopt, lead), std::nullopt);
  EXPECT_EQ(next_dial_time(p, campaign_status::active, look, std::nullopt), std::nullopt);
}

TEST(next_dial_time, the_later_of_the_dialer_look_and_the_first_lead) {
  auto p = new_york_office_hours();
  EXPECT_EQ(next_dial_time(p, campaign_status::active, at("2026-11-24T15:00:00Z"),
                           at("2026-11-24T16:30:00Z")),
            at("2026-11-24T16:30:00Z"));
  EXPECT_EQ(next_dial_time(p, campaign_status::active, at("2026-11-24T16:45:00Z"),
                           at("2026-11-24T16:30:00Z")),
            at("2026-11-24T16:45:00Z"));
}

TEST(next_dial_time, moves_into_the_daily_window_in_the_campaign_zone) {
  auto p = new_york_office_hours();
  // Tuesday 23:00 UTC is 18:00 in New York: Wednesday 09:00 local.
  EXPECT_EQ(next_dial_time(p, campaign_status::active, at("2026-11-24T23:00:00Z"),
                           at("2026-11-24T23:00:00Z")),
            at("2026-11-25T14:00:00Z"));
  // Friday 23:00 UTC: Monday 09:00 local.
  EXPECT_EQ(next_dial_time(p, campaign_status::active, at("2026-11-27T23:00:00Z"),
                           at("2026-11-27T23:00:00Z")),
            at("2026-11-30T14:00:00Z"));
  // In each lead's own hours the campaign window is not applied.
  p.lead_local_time = true;
  EXPECT_EQ(next_dial_time(p, campaign_status::active, at("2026-11-24T23:00:00Z"),
                           at("2026-11-24T23:00:00Z")),
            at("2026-11-24T23:00:00Z"));
}

TEST(next_dial_time, none_at_or_after_the_end_date) {
  auto p = new_york_office_hours();
  p.end_date = day(2026, 11, 24); // dialing ends at local midnight, 05:00 UTC on the 25th
  EXPECT_EQ(next_dial_time(p, campaign_status::active, at("2026-11-24T23:00:00Z"),
                           at("2026-11-24T23:00:00Z")),
            std::nullopt);
  EXPECT_EQ(next_dial_time(p, campaign_status::active, at("2026-11-24T15:00:00Z"),
                           at("2026-11-24T15:00:00Z")),
            at("2026-11-24T15:00:00Z"));
}

} // namespace
} // namespace vcs::domain
