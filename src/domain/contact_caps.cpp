#include "domain/contact_caps.hpp"

#include "domain/legal_hours.hpp"

#include <algorithm>

namespace vcs::domain {

std::vector<const calling_rule*> governing_caps(const calling_rule_book& book,
                                                calling_purpose purpose, const callee& who,
                                                const std::vector<const date::time_zone*>& zones,
                                                timestamp now) {
  std::vector<const calling_rule*> out;
  if (purpose == calling_purpose::none || who.country.empty())
    return out;
  const auto* zone =
      zones.empty() || zones.front() == nullptr ? date::locate_zone("UTC") : zones.front();
  const auto local = date::floor<date::days>(zone->to_local(now));
  const date::sys_days day{local.time_since_epoch()};
  for (const auto& rule : book.rules)
    if (rule.kind == calling_rule_kind::contact_cap && rule.governs(purpose) &&
        may_be_in(who, rule) && rule.in_force_on(day))
      out.push_back(&rule);
  return out;
}

calling_rule tenant_cap_rule(const tenant_contact_cap& cap) {
  calling_rule rule;
  rule.id = tenant_cap_id;
  rule.telemarketing = rule.informational = true;
  rule.kind = calling_rule_kind::contact_cap;
  rule.cap_calls = cap.calls;
  rule.cap_window = cap.window;
  return rule;
}

contact_lookback lookback_of(const calling_rule_book& book, const calling_rule* tenant_cap) {
  contact_lookback out;
  const auto widen = [&](const calling_rule& rule) {
    out.window = std::max(out.window, rule.cap_window);
    out.calls = std::max(out.calls, rule.cap_calls);
  };
  for (const auto& rule : book.rules)
    if (rule.kind == calling_rule_kind::contact_cap)
      widen(rule);
  if (tenant_cap != nullptr)
    widen(*tenant_cap);
  return out;
}

std::optional<cap_hold> cap_reached(const std::vector<const calling_rule*>& caps,
                                    const std::vector<timestamp>& recent, timestamp now) {
  std::optional<cap_hold> held;
  for (const auto* rule : caps) {
    const auto cap = static_cast<std::size_t>(rule->cap_calls);
    if (recent.size() < cap)
      continue;
    // The cap-th newest call is in the window: one more would exceed it.
    const auto frees_at = recent[cap - 1] + rule->cap_window;
    if (frees_at > now && (!held || frees_at > held->frees_at))
      held = cap_hold{rule, frees_at};
  }
  return held;
}

} // namespace vcs::domain
