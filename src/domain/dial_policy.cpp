#include "domain/dial_policy.hpp"

#include "domain/legal_hours.hpp"
#include "domain/phone_time_zones.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

#include <date/date.h>

namespace vcs::domain {
namespace {

// Indexed by weekday::c_encoding() (Sunday = 0), like days_mask's bits.
constexpr std::array<std::string_view, 7> day_names{"SUNDAY",   "MONDAY", "TUESDAY", "WEDNESDAY",
                                                    "THURSDAY", "FRIDAY", "SATURDAY"};

constexpr int32_t default_max_call_attempts = 3;
constexpr std::chrono::minutes default_min_gap{60};
// next_window_open looks at today and the 8 local days after it: every
// weekday, today's included, comes round again in that span.
constexpr int window_search_days = 8;

const date::time_zone* utc_zone() {
  static const date::time_zone* const utc = date::locate_zone("UTC");
  return utc;
}

const date::time_zone* zone_or_utc(const date::time_zone* zone) {
  return zone != nullptr ? zone : utc_zone();
}

int digits_at(std::string_view text, std::size_t pos, std::size_t count) noexcept {
  int value = 0;
  for (const char c : text.substr(pos, count))
    value = value * 10 + (c - '0');
  return value;
}

std::optional<date::local_days> day_of(const std::optional<std::string>& text) {
  if (!text || !is_calendar_date(*text))
    return std::nullopt;
  const date::year_month_day ymd{date::year{digits_at(*text, 0, 4)},
                                 date::month{static_cast<unsigned>(digits_at(*text, 5, 2))},
                                 date::day{static_cast<unsigned>(digits_at(*text, 8, 2))}};
  return date::local_days{ymd};
}

std::chrono::minutes clock_time_or(const std::optional<std::string>& text,
                                   std::chrono::minutes fallback) {
  if (!text || !is_clock_time(*text))
    return fallback;
  return std::chrono::hours{digits_at(*text, 0, 2)} + std::chrono::minutes{digits_at(*text, 3, 2)};
}

uint8_t days_mask_of(const std::optional<std::vector<std::string>>& days) {
  if (!days)
    return 0x7f;
  uint8_t mask = 0;
  for (const std::string& name : *days) {
    const auto it = std::find(day_names.begin(), day_names.end(), name);
    if (it != day_names.end())
      mask |= static_cast<uint8_t>(1u << (it - day_names.begin()));
  }
  return mask;
}

date::local_days local_date(const date::time_zone* zone, timestamp now) {
  return date::floor<date::days>(zone->to_local(now));
}

} // namespace

dial_policy policy_of(const campaign& c, bool lead_local_time) {
  dial_policy p;
  p.zone = zone_named(c.timezone);
  p.start_date = day_of(c.start_date);
  p.end_date = day_of(c.end_date);
  p.days_mask = days_mask_of(c.days_of_week);
  p.daily_start = clock_time_or(c.daily_start_time, std::chrono::minutes{0});
  p.daily_end = clock_time_or(c.daily_end_time, std::chrono::hours{24});
  p.max_call_attempts = c.max_call_attempts.value_or(default_max_call_attempts);
  p.max_daily_attempts = c.max_daily_attempts.value_or(p.max_call_attempts);
  p.min_gap = c.min_gap_between_attempts ? std::chrono::minutes{*c.min_gap_between_attempts}
                                         : default_min_gap;
  p.voicemail_is_answer = c.consider_voicemail_as_answered;
  p.lead_local_time = lead_local_time;
  p.purpose = c.purpose;
  p.rules = &calling_rules();
  if (c.tenant_cap)
    p.tenant_cap = std::make_shared<const calling_rule>(tenant_cap_rule(*c.tenant_cap));
  return p;
}

std::optional<timestamp> start_instant(const dial_policy& p) {
  if (!p.start_date)
    return std::nullopt;
  return zone_or_utc(p.zone)->to_sys(*p.start_date, date::choose::earliest);
}

std::optional<timestamp> end_instant(const dial_policy& p) {
  if (!p.end_date)
    return std::nullopt;
  return zone_or_utc(p.zone)->to_sys(*p.end_date + date::days{1}, date::choose::earliest);
}

campaign_phase phase_at(const dial_policy& p, timestamp now) {
  if (const auto start = start_instant(p); start && now < *start)
    return campaign_phase::before_start;
  if (const auto end = end_instant(p); end && now >= *end)
    return campaign_phase::after_end;
  return campaign_phase::running;
}

bool window_open(const dial_policy& p, const date::time_zone* zone, timestamp now) {
  const auto local = zone_or_utc(zone)->to_local(now);
  const auto day = date::floor<date::days>(local);
  if ((p.days_mask & (1u << date::weekday{day}.c_encoding())) == 0)
    return false;
  const auto time_of_day = local - day;
  return time_of_day >= p.daily_start && time_of_day < p.daily_end;
}

std::optional<timestamp> next_window_open(const dial_policy& p, const date::time_zone* zone,
                                          timestamp now) {
  if ((p.days_mask & 0x7f) == 0 || p.daily_start >= p.daily_end)
    return std::nullopt;
  zone = zone_or_utc(zone);
  if (window_open(p, zone, now))
    return now;
  // The window opens either where the local clock reaches daily_start (once,
  // twice on a fall-back day, or at the jump when a spring-forward skips
  // it) or where a DST jump lands the clock inside the window. Every such
  // instant is a candidate; the earliest one at which the window is
  // really open wins.
  std::optional<timestamp> best;
  const auto consider = [&](timestamp t) {
    if (t >= now && (!best || t < *best) && window_open(p, zone, t))
      best = t;
  };
  const date::local_days today = local_date(zone, now);
  for (int d = 0; d <= window_search_days; ++d) {
    const auto start = today + date::days{d} + p.daily_start;
    consider(zone->to_sys(start, date::choose::earliest));
    consider(zone->to_sys(start, date::choose::latest));
  }
  // Compared in seconds, like sys_info::end: the end of a zone's last
  // period may be too far off to convert to microseconds.
  const date::sys_seconds horizon =
      zone->to_sys(today + date::days{window_search_days + 1}, date::choose::latest);
  for (auto info = zone->get_info(now); info.end < horizon; info = zone->get_info(info.end))
    consider(info.end);
  return best;
}

timestamp next_day_start(const date::time_zone* zone, timestamp now) {
  zone = zone_or_utc(zone);
  return zone->to_sys(local_date(zone, now) + date::days{1}, date::choose::earliest);
}

timestamp next_local_day(const dial_policy& p, timestamp now) {
  return next_day_start(p.zone, now);
}

timestamp local_day_start(const dial_policy& p, timestamp now) {
  const auto* zone = zone_or_utc(p.zone);
  return zone->to_sys(local_date(zone, now), date::choose::earliest);
}

timestamp window_close(const dial_policy& p, timestamp opened) {
  const auto* zone = zone_or_utc(p.zone);
  return zone->to_sys(local_date(zone, opened) + p.daily_end, date::choose::earliest);
}

const date::time_zone* zone_named(const std::optional<std::string>& name) {
  if (!name)
    return utc_zone();
  try {
    return date::locate_zone(*name); // throws for unknown names
  } catch (const std::exception&) {
    return utc_zone();
  }
}

std::string local_day(const date::time_zone* zone, timestamp now) {
  const date::year_month_day ymd{local_date(zone_or_utc(zone), now)};
  std::array<char, 40> text{}; // room for any int and unsigned values
  std::snprintf(text.data(), text.size(), "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return text.data();
}

std::vector<const date::time_zone*> calling_zones(const dial_policy& p,
                                                  std::string_view phone_e164) {
  std::vector<const date::time_zone*> zones;
  if (p.lead_local_time)
    zones = phone_time_zones(phone_e164);
  if (zones.empty())
    zones.push_back(p.zone);
  return zones;
}

bool window_open_for(const dial_policy& p, std::string_view phone_e164, timestamp now) {
  const auto zones = calling_zones(p, phone_e164);
  return std::all_of(zones.begin(), zones.end(),
                     [&](const date::time_zone* z) { return window_open(p, z, now); });
}

std::vector<const date::time_zone*> callee_zones(const dial_policy& p,
                                                 std::string_view phone_e164) {
  auto zones = phone_time_zones(phone_e164);
  if (zones.empty())
    zones.push_back(p.zone);
  return zones;
}

std::vector<const calling_rule*> rules_for(const dial_policy& p, const dial_target& lead) {
  if (p.rules == nullptr)
    return {};
  return governing_rules(*p.rules, p.purpose, lead.where);
}

const calling_rule* legal_hold(const dial_policy& p, const dial_target& lead, timestamp now) {
  const auto rules = rules_for(p, lead);
  if (rules.empty())
    return nullptr;
  return holding_rule(rules, callee_zones(p, lead.phone_e164), now);
}

std::vector<const calling_rule*> caps_for(const dial_policy& p, const dial_target& lead,
                                          timestamp now) {
  std::vector<const calling_rule*> caps;
  if (p.rules != nullptr)
    caps = governing_caps(*p.rules, p.purpose, lead.where, callee_zones(p, lead.phone_e164), now);
  if (p.tenant_cap)
    caps.push_back(p.tenant_cap.get());
  return caps;
}

contact_lookback lookback_of(const dial_policy& p) {
  static const calling_rule_book no_rules;
  return lookback_of(p.rules != nullptr ? *p.rules : no_rules, p.tenant_cap.get());
}

std::optional<cap_hold> contact_cap_hold(const dial_policy& p, const dial_target& lead,
                                         timestamp now) {
  if (lead.recent_calls.empty())
    return std::nullopt;
  return cap_reached(caps_for(p, lead, now), lead.recent_calls, now);
}

bool can_dial_now(const dial_policy& p, const dial_target& lead, timestamp now) {
  return phase_at(p, now) == campaign_phase::running && window_open_for(p, lead.phone_e164, now) &&
         legal_hold(p, lead, now) == nullptr;
}

dial_refusal can_dial_at(const lead_call_state& s, const dial_policy& p, const dial_target& lead,
                         timestamp now) {
  if (const dial_refusal refusal = can_dial(s, p, now); refusal != dial_refusal::none)
    return refusal;
  return can_dial_now(p, lead, now) ? dial_refusal::none : dial_refusal::outside_window;
}

std::optional<timestamp> next_dial_time(const dial_policy& p, campaign_status status,
                                        std::optional<timestamp> dialer_look,
                                        std::optional<timestamp> first_dialable_at) {
  if (status != campaign_status::scheduled && status != campaign_status::active)
    return std::nullopt;
  if (!dialer_look || !first_dialable_at)
    return std::nullopt;
  std::optional<timestamp> at = std::max(*dialer_look, *first_dialable_at);
  if (!p.lead_local_time)
    at = next_window_open(p, p.zone, *at);
  auto ends = end_instant(p);
  if (at && ends && *at >= *ends)
    return std::nullopt;
  return at;
}

} // namespace vcs::domain
