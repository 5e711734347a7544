#include "domain/legal_hours.hpp"

#include <algorithm>

namespace vcs::domain {

namespace {

constexpr int search_days = 8;
constexpr int max_rounds = 16;

const date::time_zone* zone_or_utc(const date::time_zone* zone) {
  return zone != nullptr ? zone : date::locate_zone("UTC");
}

// The first instant >= at when `rule` allows a call in `zone`. It opens
// where a local day starts (a day out of force or not banned), where the
// clock reaches one of its ranges' starts (once, twice on a fall-back
// day, or at the jump when a spring-forward skips it), or where a DST jump
// lands the clock in a range: each such instant is a candidate, and the
// earliest at which the rule really allows a call wins.
std::optional<timestamp> rule_opens(const calling_rule& rule, const date::time_zone* zone,
                                    timestamp at) {
  if (rule_allows(rule, zone, at))
    return at;
  std::optional<timestamp> best;
  const auto consider = [&](timestamp t) {
    if (t >= at && (!best || t < *best) && rule_allows(rule, zone, t))
      best = t;
  };
  const auto today = date::floor<date::days>(zone->to_local(at));
  for (int d = 0; d <= search_days; ++d) {
    const auto day = today + date::days{d};
    consider(zone->to_sys(day, date::choose::earliest));
    for (const auto& ranges : rule.hours)
      for (const auto& [from, to] : ranges) {
        consider(zone->to_sys(day + from, date::choose::earliest));
        consider(zone->to_sys(day + from, date::choose::latest));
      }
  }
  const date::sys_seconds horizon =
      zone->to_sys(today + date::days{search_days + 1}, date::choose::latest);
  for (auto info = zone->get_info(at); info.end < horizon; info = zone->get_info(info.end))
    consider(info.end);
  return best;
}

} // namespace

bool may_be_in(const callee& who, const calling_rule& rule) {
  if (rule.country != who.country)
    return false;
  return rule.region.empty() || who.regions.empty() ||
         std::find(who.regions.begin(), who.regions.end(), rule.region) != who.regions.end();
}

std::vector<const calling_rule*> governing_rules(const calling_rule_book& book,
                                                 calling_purpose purpose, const callee& who) {
  std::vector<const calling_rule*> out;
  if (purpose == calling_purpose::none || who.country.empty())
    return out;
  for (const auto& rule : book.rules)
    if (rule.kind != calling_rule_kind::contact_cap && rule.governs(purpose) &&
        may_be_in(who, rule))
      out.push_back(&rule);
  return out;
}

bool rule_allows(const calling_rule& rule, const date::time_zone* zone, timestamp now) {
  const auto local = zone_or_utc(zone)->to_local(now);
  const auto day = date::floor<date::days>(local);
  if (!rule.in_force_on(date::sys_days{day.time_since_epoch()}))
    return true;
  return rule.allows_at(date::weekday{day}.c_encoding(),
                        std::chrono::duration_cast<std::chrono::microseconds>(local - day));
}

const calling_rule* holding_rule(const std::vector<const calling_rule*>& rules,
                                 const std::vector<const date::time_zone*>& zones, timestamp now) {
  const calling_rule* holder = nullptr;
  std::optional<timestamp> longest;
  for (const auto* rule : rules)
    for (const auto* zone : zones) {
      if (rule_allows(*rule, zone, now))
        continue;
      const auto opens = rule_opens(*rule, zone_or_utc(zone), now);
      // A rule that never opens within the search holds longest.
      if (holder == nullptr || !opens || (longest && *opens > *longest)) {
        holder = rule;
        longest = opens;
      }
    }
  return holder;
}

std::optional<timestamp> rules_allow_from(const std::vector<const calling_rule*>& rules,
                                          const std::vector<const date::time_zone*>& zones,
                                          timestamp at) {
  for (int round = 0; round < max_rounds; ++round) {
    timestamp latest = at;
    for (const auto* rule : rules)
      for (const auto* zone : zones) {
        const auto opens = rule_opens(*rule, zone_or_utc(zone), at);
        if (!opens)
          return std::nullopt;
        latest = std::max(latest, *opens);
      }
    if (latest == at)
      return at;
    at = latest;
  }
  return std::nullopt;
}

} // namespace vcs::domain
