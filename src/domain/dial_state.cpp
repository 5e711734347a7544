#include "domain/dial_state.hpp"

#include "domain/legal_hours.hpp"

#include <algorithm>

namespace vcs::domain {

namespace {

// Window searches give up after this many rounds (zones whose hours never
// meet).
constexpr int max_window_rounds = 16;

// The first instant from `at` when the lead's calling hours are open in
// every one of its calling zones and every calling rule allows the call
// (as can_dial_now decides).
std::optional<timestamp> window_from(const dial_policy& p, const dial_target& lead, timestamp at) {
  const auto zones = calling_zones(p, lead.phone_e164);
  const auto rules = rules_for(p, lead);
  const auto rule_zones = callee_zones(p, lead.phone_e164);
  for (int round = 0; round < max_window_rounds; ++round) {
    timestamp latest = at;
    for (const auto* zone : zones) {
      auto opens = next_window_open(p, zone, at);
      if (!opens)
        return std::nullopt;
      latest = std::max(latest, *opens);
    }
    if (!rules.empty()) {
      auto allowed = rules_allow_from(rules, rule_zones, latest);
      if (!allowed)
        return std::nullopt;
      latest = *allowed;
    }
    if (latest == at)
      return at;
    at = latest;
  }
  return std::nullopt;
}

// `at` moved into the calling hours, or nullopt when that is at or after
// the end date.
std::optional<timestamp> callable_from(const dial_policy& p, const dial_target& lead,
                                       timestamp at) {
  auto opens = window_from(p, lead, at);
  const auto ends = end_instant(p);
  if (!opens || (ends && *opens >= *ends))
    return std::nullopt;
  return opens;
}

dial_state lasting(dial_refusal r) {
  switch (r) {
  case dial_refusal::do_not_call:
    return dial_state::do_not_call;
  case dial_refusal::invalid:
    return dial_state::invalid;
  case dial_refusal::answered:
    return dial_state::answered;
  case dial_refusal::in_flight:
    return dial_state::in_call;
  default:
    break;
  }
  return dial_state::attempts_exhausted;
}

} // namespace

std::string_view to_string(dial_state s) noexcept {
  switch (s) {
  case dial_state::eligible:
    return "eligible";
  case dial_state::in_call:
    return "in_call";
  case dial_state::answered:
    return "answered";
  case dial_state::do_not_call:
    return "do_not_call";
  case dial_state::invalid:
    return "invalid";
  case dial_state::attempts_exhausted:
    return "attempts_exhausted";
  case dial_state::daily_cap_reached:
    return "daily_cap_reached";
  case dial_state::waiting_gap:
    return "waiting_gap";
  case dial_state::outside_window:
    return "outside_window";
  case dial_state::outside_legal_hours:
    return "outside_legal_hours";
  case dial_state::contact_cap_reached:
    return "contact_cap_reached";
  case dial_state::campaign_not_active:
    return "campaign_not_active";
  case dial_state::campaign_not_started:
    return "campaign_not_started";
  case dial_state::campaign_ended:
    return "campaign_ended";
  case dial_state::billing_blocked:
    return "billing_blocked";
  case dial_state::no_voice_provider:
    return "no_voice_provider";
  case dial_state::no_phone_number:
    return "no_phone_number";
  case dial_state::numbers_at_daily_cap:
    return "numbers_at_daily_cap";
  case dial_state::lines_busy:
    break;
  }
  return "lines_busy";
}

bool starts_now(const campaign_dial_facts& c, const dial_policy& p, timestamp now) {
  return c.status == campaign_status::scheduled && c.has_start_date && !c.billing_blocked &&
         phase_at(p, now) == campaign_phase::running;
}

std::optional<dial_state> campaign_refusal(const campaign_dial_facts& c, const dial_policy& p,
                                           timestamp now) {
  if (c.status == campaign_status::ended)
    return dial_state::campaign_ended;
  const auto phase = phase_at(p, now);
  if (phase == campaign_phase::after_end)
    return dial_state::campaign_ended;
  if (c.status != campaign_status::active && c.status != campaign_status::scheduled)
    return dial_state::campaign_not_active;
  if (c.billing_blocked)
    return dial_state::billing_blocked;
  if (phase == campaign_phase::before_start)
    return dial_state::campaign_not_started;
  // SCHEDULED waits for a start date; without one it waits for a person.
  if (c.status == campaign_status::scheduled && !c.has_start_date)
    return dial_state::campaign_not_active;
  if (!c.has_voice_provider)
    return dial_state::no_voice_provider;
  if (c.pool && c.pool->numbers == 0)
    return dial_state::no_phone_number;
  if (!p.lead_local_time && !window_open(p, p.zone, now))
    return dial_state::outside_window;
  if (c.pool && c.pool->calls_left_today <= 0)
    return dial_state::numbers_at_daily_cap;
  return std::nullopt;
}

lead_dial_view lead_dial_state(const campaign_dial_facts& facts,
                               std::optional<dial_state> campaign_refused, int64_t free_lines,
                               const dial_policy& p, const lead_call_state& s,
                               const dial_target& lead, bool listed, timestamp now) {
  if (listed)
    return {dial_state::do_not_call, std::nullopt};
  const auto own = can_dial(s, p, now);
  switch (own) {
  case dial_refusal::do_not_call:
  case dial_refusal::invalid:
  case dial_refusal::answered:
  case dial_refusal::in_flight:
  case dial_refusal::attempts_exhausted:
    return {lasting(own), std::nullopt};
  default:
    break;
  }
  if (campaign_refused) {
    if (*campaign_refused == dial_state::campaign_not_started)
      if (auto start = start_instant(p))
        return {*campaign_refused, callable_from(p, lead, *start)};
    if (*campaign_refused == dial_state::outside_window)
      return {*campaign_refused, callable_from(p, lead, now)};
    if (*campaign_refused == dial_state::numbers_at_daily_cap && facts.pool)
      return {*campaign_refused, callable_from(p, lead, facts.pool->next_day)};
    return {*campaign_refused, std::nullopt};
  }
  if (own == dial_refusal::daily_cap) {
    auto at = next_local_day(p, now);
    if (s.next_attempt_after && *s.next_attempt_after > at)
      at = *s.next_attempt_after;
    return {dial_state::daily_cap_reached, callable_from(p, lead, at)};
  }
  if (own == dial_refusal::too_soon)
    return {dial_state::waiting_gap, callable_from(p, lead, *s.next_attempt_after)};
  if (!window_open_for(p, lead.phone_e164, now))
    return {dial_state::outside_window, callable_from(p, lead, now)};
  if (const auto* rule = legal_hold(p, lead, now))
    return {dial_state::outside_legal_hours, callable_from(p, lead, now), rule};
  if (const auto cap = contact_cap_hold(p, lead, now))
    return {dial_state::contact_cap_reached, callable_from(p, lead, cap->frees_at), cap->rule};
  if (free_lines <= 0)
    return {dial_state::lines_busy, std::nullopt};
  return {dial_state::eligible, now};
}

} // namespace vcs::domain
