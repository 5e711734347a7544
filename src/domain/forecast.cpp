#include "domain/forecast.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>

namespace vcs::domain {

namespace {

constexpr std::size_t state_count = static_cast<std::size_t>(dial_state::lines_busy) + 1;

// The calls one lead still needs when each call is answered with
// probability `rate` and `attempts` are left (a mean over the open leads,
// so possibly a fraction): 1 + (1 - rate) + (1 - rate)^2 + ...
double calls_per_lead(double rate, double attempts) {
  if (attempts <= 0)
    return 0;
  if (rate <= 0)
    return attempts;
  return std::min(attempts, (1 - std::pow(1 - rate, attempts)) / rate);
}

struct finish {
  forecast_outlook outlook = forecast_outlook::finishing;
  std::optional<timestamp> at;
  int64_t left = 0;
};

// Walks the calling hours from `from`, one local day's window at a time,
// placing `per_hour` calls an hour and at most `per_day` a day, or
// `per_today` on the local day of `now`.
finish finish_of(const dial_policy& p, timestamp now, timestamp from, double calls, double per_hour,
                 double per_day, double per_today) {
  const auto today = local_day_start(p, now);
  const auto end = end_instant(p);
  auto t = from;
  double left = calls;
  for (int day = 0; day < forecast_horizon_days; ++day) {
    const auto opens = next_window_open(p, p.zone, t);
    if (!opens)
      return {forecast_outlook::no_calling_window};
    if (end && *opens >= *end)
      return {forecast_outlook::past_end_date, std::nullopt, static_cast<int64_t>(std::ceil(left))};
    auto closes = window_close(p, *opens);
    if (end)
      closes = std::min(closes, *end);
    const std::chrono::duration<double, std::ratio<3600>> hours = closes - *opens;
    const double day_cap = local_day_start(p, *opens) == today ? per_today : per_day;
    const double can = std::max(0.0, std::min(per_hour * hours.count(), day_cap));
    if (left <= can) {
      const std::chrono::duration<double, std::ratio<3600>> needed{left / per_hour};
      return {forecast_outlook::finishing,
              *opens + std::chrono::round<std::chrono::microseconds>(needed)};
    }
    left -= can;
    t = closes;
  }
  return {forecast_outlook::beyond_horizon};
}

} // namespace

std::string_view to_string(forecast_outlook o) noexcept {
  switch (o) {
  case forecast_outlook::finishing:
    return "finishing";
  case forecast_outlook::nothing_to_dial:
    return "nothing_to_dial";
  case forecast_outlook::campaign_ended:
    return "campaign_ended";
  case forecast_outlook::no_voice_provider:
    return "no_voice_provider";
  case forecast_outlook::no_phone_number:
    return "no_phone_number";
  case forecast_outlook::no_calling_window:
    return "no_calling_window";
  case forecast_outlook::past_end_date:
    return "past_end_date";
  case forecast_outlook::beyond_horizon:
    return "beyond_horizon";
  }
  return "finishing";
}

forecast forecast_of(const lead_tally& leads, const call_sample& calls,
                     const campaign_dial_facts& facts, const dial_policy& p, int32_t lines,
                     int64_t free_lines, timestamp now) {
  forecast f;
  std::array<int64_t, state_count> by_state{};
  const auto count = [&](dial_state s) -> int64_t& {
    return by_state[static_cast<std::size_t>(s)];
  };
  const int64_t ready = std::max<int64_t>(0, leads.callable - leads.exhausted);
  f.total_leads = leads.do_not_call + leads.invalid + leads.answered + leads.in_call +
                  leads.failed + leads.callable;
  count(dial_state::do_not_call) = leads.do_not_call;
  count(dial_state::invalid) = leads.invalid;
  count(dial_state::answered) = leads.answered;
  count(dial_state::in_call) = leads.in_call;
  count(dial_state::attempts_exhausted) = leads.failed + leads.exhausted;
  // The campaign's refusal comes before a lead's waiting, as in
  // lead_dial_state.
  if (const auto refused = campaign_refusal(facts, p, now)) {
    count(*refused) += ready;
  } else {
    const auto capped = std::clamp<int64_t>(leads.daily_capped, 0, ready);
    const auto gap = std::clamp<int64_t>(leads.in_gap, 0, ready - capped);
    count(dial_state::daily_cap_reached) = capped;
    count(dial_state::waiting_gap) = gap;
    (free_lines > 0 ? f.eligible_now : count(dial_state::lines_busy)) = ready - capped - gap;
  }
  // The calling rules hold leads by each one's place and zones, which the
  // counters do not tell: the forecast does not count them.
  for (std::size_t i = 0; i < state_count; ++i)
    if (static_cast<dial_state>(i) != dial_state::eligible &&
        static_cast<dial_state>(i) != dial_state::outside_legal_hours &&
        static_cast<dial_state>(i) != dial_state::contact_cap_reached)
      f.skipped.emplace_back(static_cast<dial_state>(i), by_state[i]);

  f.open_leads = ready;
  f.concurrency = lines;
  const bool measured = calls.calls >= min_measured_calls;
  f.line_seconds_measured = f.answer_rate_measured = measured;
  f.line_seconds = measured ? std::max(1.0, calls.line_seconds) : assumed_line_seconds;
  f.answer_rate = measured ? static_cast<double>(calls.answered) / static_cast<double>(calls.calls)
                           : assumed_answer_rate;
  const auto attempts_left = std::max<int64_t>(
      0, ready * p.max_call_attempts - (leads.callable_attempts - leads.exhausted_attempts));
  const double expected =
      ready > 0 ? static_cast<double>(ready) *
                      calls_per_lead(f.answer_rate, static_cast<double>(attempts_left) /
                                                        static_cast<double>(ready))
                : 0;
  f.expected_calls = static_cast<int64_t>(std::ceil(expected));
  // Lines bound the rate, and so does the gap: a lead is called at most
  // once per gap and call.
  const double gap_seconds = std::chrono::duration<double>(p.min_gap).count();
  f.calls_per_hour =
      lines > 0 && ready > 0
          ? std::min(lines * 3600.0 / f.line_seconds,
                     static_cast<double>(ready) * 3600.0 / (gap_seconds + f.line_seconds))
          : 0;

  if (facts.status == campaign_status::ended || phase_at(p, now) == campaign_phase::after_end)
    f.outlook = forecast_outlook::campaign_ended;
  else if (ready == 0)
    f.outlook = forecast_outlook::nothing_to_dial;
  else if (lines <= 0 || !facts.has_voice_provider)
    f.outlook = forecast_outlook::no_voice_provider;
  else if (facts.pool && facts.pool->numbers == 0)
    f.outlook = forecast_outlook::no_phone_number;
  else {
    auto from = now;
    if (const auto start = start_instant(p); start && *start > from)
      from = *start;
    // Today the leads at their daily cap are out (whatever holds the campaign).
    const auto capped = std::clamp<int64_t>(leads.daily_capped, 0, ready);
    auto per_day = static_cast<double>(ready) * p.max_daily_attempts;
    auto per_today = static_cast<double>(ready - capped) * p.max_daily_attempts;
    if (facts.pool) {
      per_day = std::min(per_day, static_cast<double>(facts.pool->calls_per_day));
      per_today = std::min(per_today, static_cast<double>(facts.pool->calls_left_today));
    }
    const auto done = finish_of(p, now, from, static_cast<double>(f.expected_calls),
                                f.calls_per_hour, per_day, per_today);
    f.outlook = done.outlook;
    f.estimated_finish_at = done.at;
    f.calls_left_at_end = done.left;
  }
  return f;
}

} // namespace vcs::domain
