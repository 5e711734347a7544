#include "domain/legal_window.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace vcs::domain {

namespace {

std::string clock(std::chrono::minutes m) {
  char text[8];
  std::snprintf(text, sizeof text, "%02d:%02d", static_cast<int>(m.count() / 60),
                static_cast<int>(m.count() % 60));
  return text;
}

} // namespace

const calling_rule* window_outside_rules(const dial_policy& p, timestamp now) {
  if (p.purpose == calling_purpose::none || !p.lead_local_time || p.rules == nullptr ||
      p.zone == nullptr)
    return nullptr;
  const auto country = p.rules->country_of_zone(p.zone->name());
  if (!country)
    return nullptr;
  const date::sys_days today{date::floor<date::days>(p.zone->to_local(now)).time_since_epoch()};
  std::vector<const calling_rule*> national;
  for (const auto& rule : p.rules->rules)
    if (rule.kind != calling_rule_kind::contact_cap && rule.country == *country &&
        rule.region.empty() && rule.governs(p.purpose) && rule.in_force_on(today))
      national.push_back(&rule);
  if (national.empty())
    return nullptr;
  std::vector<int> allowed(national.size(), 0);
  bool has_minutes = false;
  for (unsigned weekday = 0; weekday < 7; ++weekday) {
    if (((p.days_mask >> weekday) & 1u) == 0)
      continue;
    for (auto m = p.daily_start; m < p.daily_end; ++m) {
      has_minutes = true;
      bool every = true;
      for (std::size_t i = 0; i < national.size(); ++i) {
        if (national[i]->allows_at(weekday, m))
          ++allowed[i];
        else
          every = false;
      }
      if (every)
        return nullptr;
    }
  }
  if (!has_minutes)
    return nullptr;
  return national[static_cast<std::size_t>(std::min_element(allowed.begin(), allowed.end()) -
                                           allowed.begin())];
}

error window_outside_legal_hours(const dial_policy& p, const calling_rule& rule) {
  field_errors errors;
  errors.add("daily_start_time",
             "The calling window " + clock(p.daily_start) + "-" + clock(p.daily_end) +
                 " in each lead's own time is outside the hours that calling rule " + rule.id +
                 " allows in " + rule.jurisdiction() + " (" + rule.source_title + ", " +
                 rule.source_url + "), so no lead there could be called. Widen the window or " +
                 "its days, or choose another calling_purpose.");
  return invalid_data(std::move(errors));
}

std::optional<error> refuse_useless_window(const campaign& written, const campaign_fields& f,
                                           timestamp now) {
  if (!f.timezone && !f.days_of_week && !f.daily_start_time && !f.daily_end_time &&
      !f.lead_local_time && !f.calling_purpose)
    return std::nullopt;
  const auto p = policy_of(written, written.lead_local_time);
  if (const auto* rule = window_outside_rules(p, now))
    return window_outside_legal_hours(p, *rule);
  return std::nullopt;
}

} // namespace vcs::domain
