#include "domain/callee.hpp"
#include "domain/calling_rules.hpp"
#include "domain/dial_state.hpp"
#include "domain/legal_hours.hpp"
#include "domain/legal_window.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

// The calling rules as the dialer applies them, read from the data compiled
// into the binary (data/calling_rules/rules.json): each kind of rule at its
// edges, in the called person's local time, across DST changes.

namespace vcs::domain {
namespace {

using namespace std::chrono_literals;

timestamp at(const char* iso) {
  return *parse_iso8601(iso);
}

// A campaign open all day, every day, in UTC: only the rules narrow it.
dial_policy telemarketing() {
  dial_policy p;
  p.zone = date::locate_zone("UTC");
  p.lead_local_time = true;
  p.purpose = calling_purpose::telemarketing;
  p.rules = &calling_rules();
  return p;
}

std::string held_by(const dial_policy& p, std::string_view phone, const callee& where,
                    timestamp now) {
  const auto* rule = legal_hold(p, {phone, where}, now);
  return rule == nullptr ? std::string{"none"} : rule->id;
}

callee in_state(const char* state) {
  return callee_of("+12125550100", state, std::nullopt);
}

TEST(calling_rules, the_compiled_data_reads_and_every_rule_has_a_source_and_a_start) {
  const auto& book = calling_rules();
  EXPECT_FALSE(book.version.empty());
  EXPECT_NE(book.notice.find("not legal advice"), std::string::npos);
  ASSERT_FALSE(book.rules.empty());
  for (const auto& r : book.rules) {
    EXPECT_EQ(r.source_url.rfind("https://", 0), 0u) << r.id;
    EXPECT_FALSE(r.source_title.empty()) << r.id;
    EXPECT_GT(r.effective_from, date::sys_days{date::year{1990} / 1 / 1}) << r.id;
  }
}

TEST(calling_rules, a_rule_that_does_not_read_is_refused_by_name) {
  const std::string head = R"({"version":"1","reviewed_on":"2026-01-01","notice":"n","rules":[)";
  const std::string good =
      R"({"id":"x","jurisdiction":{"country":"US","region":null},"purposes":["telemarketing"],)"
      R"("kind":"day_ban","banned_days":{"weekdays":["sun"]},"effective_from":"2020-01-01",)"
      R"("effective_to":null,"source":{"title":"t","url":"https://example.gov"}})";
  EXPECT_EQ(parse_calling_rule_book(head + good + "]}").rules.at(0).banned_weekdays, 1u);
  auto refused = [&](std::string rule, const std::string& from, const std::string& to) {
    rule.replace(rule.find(from), from.size(), to);
    try {
      parse_calling_rule_book(head + rule + "]}");
    } catch (const std::invalid_argument& e) {
      return std::string{e.what()};
    }
    return std::string{"read"};
  };
  EXPECT_NE(refused(good, R"(,"source":{"title":"t","url":"https://example.gov"})", "")
                .find("calling rule x: no source"),
            std::string::npos);
  EXPECT_NE(refused(good, R"("effective_from":"2020-01-01",)", "").find("no effective_from"),
            std::string::npos);
  EXPECT_NE(refused(good, "day_ban", "curfew").find("unknown kind"), std::string::npos);
  EXPECT_NE(refused(good, R"("weekdays":["sun"])", R"("weekdays":[],"holidays":["us:new_year"])")
                .find("holiday bans"),
            std::string::npos);
  EXPECT_NE(refused(good, "2020-01-01", "2020-02-30").find("no such date"), std::string::npos);
}

TEST(calling_rules, a_leads_own_fields_place_it_before_its_number) {
  auto fl = callee_of("+14155550100", "FL", std::nullopt);
  EXPECT_EQ(fl.country, "US");
  EXPECT_EQ(fl.regions, std::vector<std::string>{"FL"});
  EXPECT_TRUE(fl.region_given);
  EXPECT_EQ(callee_of("+14155550100", " us-fl ", std::nullopt).regions, fl.regions);
  EXPECT_EQ(callee_of("+14155550100", "florida", std::nullopt).regions, fl.regions);
  EXPECT_EQ(place_text(fl), "US-FL");

  auto toronto = callee_of("+14155550100", std::nullopt, "m5v 2t6");
  EXPECT_EQ(place_text(toronto), "CA-ON");
  EXPECT_EQ(callee_of("+18675550100", std::nullopt, "X0A 0H0").regions,
            (std::vector<std::string>{"NT", "NU"}));

  // The number alone: the country, never a state (a mobile keeps its area
  // code), except a NANP territory.
  auto miami = callee_of("+13055550100", std::nullopt, std::nullopt);
  EXPECT_EQ(miami.country, "US");
  EXPECT_TRUE(miami.regions.empty());
  EXPECT_EQ(callee_of("+13055550100", "Atlantis", "12345").country, "US");
  EXPECT_EQ(place_text(callee_of("+17875550100", std::nullopt, std::nullopt)), "US-PR");
  EXPECT_EQ(callee_of("+14165550100", std::nullopt, std::nullopt).country, "CA");
  EXPECT_EQ(callee_of("+442079460000", std::nullopt, std::nullopt).country, "GB");
}

TEST(calling_rules, us_federal_hours_hold_at_their_edges_in_the_callees_time) {
  const auto p = telemarketing();
  const auto ca = in_state("CA");
  const auto sf = "+14155550100";
  // 2030-01-02 (a Wednesday), Pacific standard time (UTC-8).
  EXPECT_EQ(held_by(p, sf, ca, at("2030-01-02T15:59:00Z")), "us-federal-tcpa-hours");
  EXPECT_EQ(held_by(p, sf, ca, at("2030-01-02T16:00:00Z")), "none");
  EXPECT_EQ(held_by(p, sf, ca, at("2030-01-03T04:59:59Z")), "none");
  EXPECT_EQ(held_by(p, sf, ca, at("2030-01-03T05:00:00Z")), "us-federal-tcpa-hours");
}

TEST(calling_rules, floridas_narrower_hours_hold_a_florida_lead_and_an_unplaced_us_number) {
  const auto p = telemarketing();
  const auto miami = "+13055550100";
  // 2030-01-02, Eastern standard time (UTC-5): 20:00 is 01:00Z next day.
  EXPECT_EQ(held_by(p, miami, in_state("FL"), at("2030-01-03T00:59:00Z")), "none");
  EXPECT_EQ(held_by(p, miami, in_state("FL"), at("2030-01-03T01:00:00Z")), "us-fl-hours");
  // The same number in New York by its lead's field: only the federal hours.
  EXPECT_EQ(held_by(p, miami, in_state("NY"), at("2030-01-03T01:00:00Z")), "none");
  // Without a field the number may be anyone's in any state: the strictest.
  const auto unplaced = callee_of(miami, std::nullopt, std::nullopt);
  EXPECT_EQ(held_by(p, miami, unplaced, at("2030-01-03T01:00:00Z")), "us-fl-hours");
  // A Canadian number is not under US rules.
  EXPECT_EQ(held_by(p, "+14165550100", callee_of("+14165550100", std::nullopt, std::nullopt),
                    at("2030-01-03T01:00:00Z")),
            "none");
}

TEST(calling_rules, washingtons_hours_end_at_20_00_in_the_callees_time) {
  const auto p = telemarketing();
  const auto seattle = "+12065550100";
  // 2030-01-02, Pacific standard time (UTC-8): 20:00 is 04:00Z next day.
  EXPECT_EQ(held_by(p, seattle, in_state("WA"), at("2030-01-02T15:59:00Z")),
            "us-federal-tcpa-hours");
  EXPECT_EQ(held_by(p, seattle, in_state("WA"), at("2030-01-03T03:59:00Z")), "none");
  EXPECT_EQ(held_by(p, seattle, in_state("WA"), at("2030-01-03T04:00:00Z")), "us-wa-hours");
  EXPECT_EQ(held_by(p, seattle, in_state("OR"), at("2030-01-03T04:00:00Z")), "none");
  EXPECT_EQ(held_by(p, seattle, in_state("WA"), at("2030-01-02T16:00:00Z")), "none") << "08:00";
  // Both DST days of 2027: 20:00 PDT is 03:00Z, 20:00 PST is 04:00Z.
  EXPECT_EQ(held_by(p, seattle, in_state("WA"), at("2027-03-15T02:59:00Z")), "none");
  EXPECT_EQ(held_by(p, seattle, in_state("WA"), at("2027-03-15T03:00:00Z")), "us-wa-hours");
  EXPECT_EQ(held_by(p, seattle, in_state("WA"), at("2027-11-08T03:59:00Z")), "none");
  EXPECT_EQ(held_by(p, seattle, in_state("WA"), at("2027-11-08T04:00:00Z")), "us-wa-hours");
  // Before the 2022 amendment took effect the state added nothing.
  EXPECT_EQ(held_by(p, seattle, in_state("WA"), at("2022-06-09T03:30:00Z")), "none");
  EXPECT_EQ(held_by(p, seattle, in_state("WA"), at("2022-06-10T03:30:00Z")), "us-wa-hours");
}

TEST(calling_rules, canadas_hours_differ_on_weekends) {
  const auto p = telemarketing();
  const auto toronto = "+14165550100";
  const auto on = callee_of(toronto, std::nullopt, std::nullopt);
  // 2030-01-04 is a Friday (EST, UTC-5): 09:00-21:30.
  EXPECT_EQ(held_by(p, toronto, on, at("2030-01-04T13:59:00Z")), "ca-crtc-telemarketing-hours");
  EXPECT_EQ(held_by(p, toronto, on, at("2030-01-04T14:00:00Z")), "none");
  EXPECT_EQ(held_by(p, toronto, on, at("2030-01-05T02:29:00Z")), "none");
  EXPECT_EQ(held_by(p, toronto, on, at("2030-01-05T02:30:00Z")), "ca-crtc-telemarketing-hours");
  // Saturday 2030-01-05: 10:00-18:00.
  EXPECT_EQ(held_by(p, toronto, on, at("2030-01-05T14:59:00Z")), "ca-crtc-telemarketing-hours");
  EXPECT_EQ(held_by(p, toronto, on, at("2030-01-05T15:00:00Z")), "none");
  EXPECT_EQ(held_by(p, toronto, on, at("2030-01-05T23:00:00Z")), "ca-crtc-telemarketing-hours");
}

TEST(calling_rules, the_edges_move_with_daylight_saving_time) {
  const auto p = telemarketing();
  const auto ny = "+12125550100";
  const auto where = in_state("NY");
  // 2027-03-14: New York springs forward; 08:00 EDT is 12:00Z (13:00Z the day before).
  EXPECT_EQ(held_by(p, ny, where, at("2027-03-13T12:59:00Z")), "us-federal-tcpa-hours");
  EXPECT_EQ(held_by(p, ny, where, at("2027-03-13T13:00:00Z")), "none");
  EXPECT_EQ(held_by(p, ny, where, at("2027-03-14T11:59:00Z")), "us-federal-tcpa-hours");
  EXPECT_EQ(held_by(p, ny, where, at("2027-03-14T12:00:00Z")), "none");
  // 2027-11-07: back to EST; 21:00 is 02:00Z next day (01:00Z the day before).
  EXPECT_EQ(held_by(p, ny, where, at("2027-11-07T00:59:00Z")), "none");
  EXPECT_EQ(held_by(p, ny, where, at("2027-11-07T01:00:00Z")), "us-federal-tcpa-hours");
  EXPECT_EQ(held_by(p, ny, where, at("2027-11-08T01:59:00Z")), "none");
  EXPECT_EQ(held_by(p, ny, where, at("2027-11-08T02:00:00Z")), "us-federal-tcpa-hours");
}

TEST(calling_rules, only_the_purposes_a_rule_governs_are_held) {
  auto p = telemarketing();
  const auto ca = in_state("CA");
  const auto night = at("2030-01-02T10:00:00Z"); // 02:00 in San Francisco
  EXPECT_EQ(held_by(p, "+14155550100", ca, night), "us-federal-tcpa-hours");
  p.purpose = calling_purpose::informational;
  EXPECT_EQ(held_by(p, "+14155550100", ca, night), "none");
  p.purpose = calling_purpose::none;
  EXPECT_EQ(held_by(p, "+14155550100", ca, night), "none");
  EXPECT_EQ(to_string(calling_purpose::telemarketing), "TELEMARKETING");
  EXPECT_EQ(parse_calling_purpose("INFORMATIONAL"), calling_purpose::informational);
  EXPECT_EQ(parse_calling_purpose("telemarketing"), std::nullopt);
}

TEST(calling_rules, a_rule_applies_only_on_the_local_days_it_is_in_force) {
  auto book = calling_rules();
  for (auto& r : book.rules) {
    r.effective_from = date::sys_days{date::year{2030} / 1 / 3};
    r.effective_to = date::sys_days{date::year{2030} / 1 / 4};
  }
  auto p = telemarketing();
  p.rules = &book;
  const auto ca = in_state("CA");
  // 02:00 in San Francisco on the 2nd, 3rd and 4th.
  EXPECT_EQ(held_by(p, "+14155550100", ca, at("2030-01-02T10:00:00Z")), "none");
  EXPECT_EQ(held_by(p, "+14155550100", ca, at("2030-01-03T10:00:00Z")), "us-federal-tcpa-hours");
  EXPECT_EQ(held_by(p, "+14155550100", ca, at("2030-01-04T10:00:00Z")), "none");
}

TEST(calling_rules, a_held_lead_says_the_rule_and_when_every_rule_allows_it) {
  auto p = telemarketing();
  lead_call_state s;
  campaign_dial_facts facts{campaign_status::active, false, true, false};
  // 20:30 in Miami (EST): Florida's hours ended at 20:00; 08:00 tomorrow.
  const dial_target fl{"+13055550100", in_state("FL")};
  auto v = lead_dial_state(facts, std::nullopt, 1, p, s, fl, false, at("2030-01-03T01:30:00Z"));
  EXPECT_EQ(v.state, dial_state::outside_legal_hours);
  ASSERT_NE(v.rule, nullptr);
  EXPECT_EQ(v.rule->id, "us-fl-hours");
  EXPECT_EQ(v.rule->jurisdiction(), "US-FL");
  EXPECT_EQ(v.next_dial_at, at("2030-01-03T13:00:00Z"));
  // The campaign's own window, 10:00-12:00 in the lead's zone, is later still.
  p.daily_start = 10h;
  p.daily_end = 12h;
  v = lead_dial_state(facts, std::nullopt, 1, p, s, fl, false, at("2030-01-03T01:30:00Z"));
  EXPECT_EQ(v.state, dial_state::outside_window);
  EXPECT_EQ(v.next_dial_at, at("2030-01-03T15:00:00Z"));
  // A window 20:00-23:00 never meets Florida's hours: never callable.
  p.daily_start = 20h;
  p.daily_end = 23h;
  v = lead_dial_state(facts, std::nullopt, 1, p, s, fl, false, at("2030-01-03T01:30:00Z"));
  EXPECT_EQ(v.state, dial_state::outside_legal_hours);
  EXPECT_EQ(v.next_dial_at, std::nullopt);
}

TEST(calling_rules, floridas_cap_holds_a_fourth_call_in_24_hours_until_the_first_leaves) {
  const auto p = telemarketing();
  const auto now = at("2030-01-02T18:00:00Z"); // 13:00 in Miami
  const dial_target fl{"+13055550100", in_state("FL")};
  const auto caps = caps_for(p, fl, now);
  ASSERT_EQ(caps.size(), 1u);
  EXPECT_EQ(caps.front()->id, "us-fl-cap");
  EXPECT_EQ(caps.front()->cap_calls, 3);
  EXPECT_EQ(caps.front()->cap_window, 24h);
  // The strictest for a number not placed in a state; none in New York or
  // for informational calls.
  EXPECT_EQ(
      caps_for(p, {"+13055550100", callee_of("+13055550100", std::nullopt, std::nullopt)}, now)
          .size(),
      1u);
  EXPECT_TRUE(caps_for(p, {"+12125550100", in_state("NY")}, now).empty());
  auto informational = p;
  informational.purpose = calling_purpose::informational;
  EXPECT_TRUE(caps_for(informational, fl, now).empty());

  const std::vector<timestamp> two{now - 1h, now - 2h};
  const std::vector<timestamp> three{now - 1h, now - 2h, now - 23h};
  EXPECT_FALSE(cap_reached(caps, two, now));
  auto held = cap_reached(caps, three, now);
  ASSERT_TRUE(held);
  EXPECT_EQ(held->rule->id, "us-fl-cap");
  EXPECT_EQ(held->frees_at, now + 1h) << "when the oldest of the three is 24 hours old";
  EXPECT_FALSE(cap_reached(caps, three, now + 1h));
  EXPECT_EQ(lookback_of(calling_rules(), nullptr).window, 24h);
  EXPECT_EQ(lookback_of(calling_rules(), nullptr).calls, 3);

  // The lead says so, and may be called when the call leaves the window,
  // moved into Florida's hours: freed at 02:00 in Miami, called at 08:00.
  const auto late = at("2030-01-02T13:30:00Z"); // 08:30 in Miami
  dial_target capped = fl;
  capped.recent_calls = {late - 1h, late - 2h, late - 6h - 30min}; // the oldest at 02:00
  auto v = lead_dial_state({campaign_status::active, false, true, false}, std::nullopt, 1, p,
                           lead_call_state{}, capped, false, late);
  EXPECT_EQ(v.state, dial_state::contact_cap_reached);
  ASSERT_NE(v.rule, nullptr);
  EXPECT_EQ(v.rule->id, "us-fl-cap");
  EXPECT_EQ(v.next_dial_at, at("2030-01-03T13:00:00Z"));
}

TEST(calling_rules, a_tenants_own_cap_counts_beside_the_rules_for_every_purpose) {
  auto p = telemarketing();
  p.purpose = calling_purpose::none;
  p.tenant_cap = std::make_shared<const calling_rule>(tenant_cap_rule({2, 72h}));
  const auto now = at("2030-01-02T18:00:00Z");
  const dial_target ny{"+12125550100", in_state("NY")};
  // With no purpose the rules add nothing, and the tenant's cap still holds.
  auto caps = caps_for(p, ny, now);
  ASSERT_EQ(caps.size(), 1u);
  EXPECT_EQ(caps.front()->id, tenant_cap_id);
  EXPECT_EQ(caps.front()->jurisdiction(), "") << "the tenant's own, not a jurisdiction's";
  EXPECT_EQ(lookback_of(p).window, 72h) << "the longest window counts";
  EXPECT_EQ(lookback_of(p).calls, 3) << "Florida's three calls are the most";
  const std::vector<timestamp> one{now - 1h};
  const std::vector<timestamp> two{now - 1h, now - 50h};
  EXPECT_FALSE(cap_reached(caps, one, now));
  auto held = cap_reached(caps, two, now);
  ASSERT_TRUE(held);
  EXPECT_EQ(held->frees_at, now + 22h) << "when the call of 50 hours ago is 72 hours old";

  // Beside Florida's, the one that frees latest holds the lead.
  p.purpose = calling_purpose::telemarketing;
  const dial_target fl{"+13055550100", in_state("FL")};
  caps = caps_for(p, fl, now);
  ASSERT_EQ(caps.size(), 2u);
  const std::vector<timestamp> three{now - 1h, now - 2h, now - 23h};
  held = cap_reached(caps, three, now);
  ASSERT_TRUE(held);
  EXPECT_EQ(held->rule->id, tenant_cap_id);
  EXPECT_EQ(held->frees_at, now + 70h);
  // A looser cap of the tenant's: Florida's holds.
  p.tenant_cap = std::make_shared<const calling_rule>(tenant_cap_rule({10, 1h}));
  held = cap_reached(caps_for(p, fl, now), three, now);
  ASSERT_TRUE(held);
  EXPECT_EQ(held->rule->id, "us-fl-cap");
}

// A window in each lead's own time that no national rule of the
// campaign's country allows is refused; one with a minute in them is not.
TEST(calling_rules, a_window_the_national_rules_leave_no_minute_is_useless) {
  const auto now = at("2030-01-02T18:00:00Z");
  auto p = telemarketing();
  p.zone = date::locate_zone("America/New_York");
  p.daily_start = 21h;
  p.daily_end = 23h;
  const auto* rule = window_outside_rules(p, now);
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->jurisdiction(), "US");
  // One minute inside 08:00-21:00 is of use.
  p.daily_start = 20h + 59min;
  EXPECT_EQ(window_outside_rules(p, now), nullptr);
  // In the campaign's own zone it meets other zones at other hours.
  p.daily_start = 21h;
  p.lead_local_time = false;
  EXPECT_EQ(window_outside_rules(p, now), nullptr);
  // No purpose, or a zone of a country the data does not cover: no rule.
  p.lead_local_time = true;
  p.purpose = calling_purpose::none;
  EXPECT_EQ(window_outside_rules(p, now), nullptr);
  p.purpose = calling_purpose::telemarketing;
  p.zone = date::locate_zone("Europe/London");
  EXPECT_EQ(window_outside_rules(p, now), nullptr);
  // Guam is placed under US: its zone is the data's too.
  p.zone = date::locate_zone("Pacific/Guam");
  EXPECT_NE(window_outside_rules(p, now), nullptr);

  // Canada: weekends 10:00-18:00. Saturday and Sunday 18:00-20:00 is of no
  // use; with Friday it is (09:00-21:30).
  p.zone = date::locate_zone("America/Toronto");
  p.daily_start = 18h;
  p.daily_end = 20h;
  p.days_mask = (1u << 0) | (1u << 6);
  rule = window_outside_rules(p, now);
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->id, "ca-crtc-telemarketing-hours");
  p.days_mask |= 1u << 5;
  EXPECT_EQ(window_outside_rules(p, now), nullptr);
  // No calling day at all says nothing of the rules.
  p.days_mask = 0;
  EXPECT_EQ(window_outside_rules(p, now), nullptr);
}

// Independent of legal_hours.cpp: the hours a rule allows, read off its
// table on the local clock of the zone.
bool table_allows(const calling_rule& r, const date::time_zone* zone, timestamp t) {
  const auto local = date::make_zoned(zone, date::floor<std::chrono::seconds>(t)).get_local_time();
  const auto day = date::floor<date::days>(local);
  const date::year_month_day ymd{day};
  if (date::sys_days{ymd} < r.effective_from ||
      (r.effective_to && date::sys_days{ymd} >= *r.effective_to))
    return true;
  const auto wd = date::weekday{day}.c_encoding();
  if (r.kind == calling_rule_kind::day_ban)
    return ((r.banned_weekdays >> wd) & 1u) == 0;
  const auto minute = std::chrono::duration_cast<std::chrono::minutes>(local - day);
  for (const auto& [from, to] : r.hours[wd])
    if (minute >= from && minute < to)
      return true;
  return false;
}

// Over a year of instants (both DST changes of 2027 included) and numbers
// in every jurisdiction the data covers, a lead is callable exactly when
// no rule of its place forbids the call in any zone it may be in; a held
// lead's next_dial_at is allowed by every rule and the minute before it is
// not.
TEST(calling_rules, over_a_year_a_call_is_allowed_exactly_when_no_applicable_rule_forbids_it) {
  const auto p = telemarketing();
  struct sample {
    const char* phone;
    std::optional<const char*> state;
  };
  const std::vector<sample> samples{
      {"+13055550100", "FL"}, {"+13055550100", std::nullopt}, {"+14155550100", "CA"},
      {"+12125550100", "NY"}, {"+19075550100", "AK"},         {"+18085550100", "HI"},
      {"+12065550100", "WA"}, {"+17875550100", std::nullopt}, {"+14165550100", std::nullopt},
      {"+16045550100", "BC"}, {"+18005550100", std::nullopt}, {"+442079460000", std::nullopt}};
  std::mt19937_64 random{20270314};
  std::uniform_int_distribution<int64_t> jitter{0, 3599};
  int held = 0, allowed = 0;
  const auto start = at("2027-01-01T00:00:00Z");
  for (int64_t hour = 0; hour < 365 * 24; hour += 5) {
    const auto now = start + std::chrono::hours{hour} + std::chrono::seconds{jitter(random)};
    for (const auto& s : samples) {
      const dial_target lead{s.phone, callee_of(s.phone, s.state, std::nullopt)};
      const auto rules = rules_for(p, lead);
      const auto zones = callee_zones(p, lead.phone_e164);
      bool forbidden = false;
      for (const auto* r : rules)
        for (const auto* z : zones)
          forbidden = forbidden || !table_allows(*r, z, now);
      ASSERT_EQ(can_dial_now(p, lead, now), !forbidden) << s.phone << " at " << format_utc(now);
      if (!forbidden) {
        ++allowed;
        continue;
      }
      ++held;
      auto v = lead_dial_state({campaign_status::active, false, true, false}, std::nullopt, 1, p,
                               lead_call_state{}, lead, false, now);
      ASSERT_EQ(v.state, dial_state::outside_legal_hours) << s.phone << " at " << format_utc(now);
      ASSERT_TRUE(v.next_dial_at) << s.phone << " at " << format_utc(now);
      ASSERT_TRUE(can_dial_now(p, lead, *v.next_dial_at)) << s.phone;
      ASSERT_FALSE(can_dial_now(p, lead, *v.next_dial_at - 1min))
          << s.phone << " at " << format_utc(now);
    }
  }
  // Both sides were seen often.
  EXPECT_GT(held, 5000);
  EXPECT_GT(allowed, 5000);
}

} // namespace
} // namespace vcs::domain
