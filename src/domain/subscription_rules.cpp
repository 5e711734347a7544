#include "domain/subscription_rules.hpp"

#include <algorithm>

namespace vcs::domain {

bool is_cycle_request(std::string_view type) noexcept {
  return type == "SUBSCRIPTION" || type == "OVERAGE";
}

void validate_payment_request(const payment_request_draft& draft, field_errors& errors) {
  if (draft.period_start && draft.period_end && *draft.period_end < *draft.period_start)
    errors.add("period_end", "Must not be before period_start.");
  if (is_cycle_request(draft.type) && !draft.names_subscription)
    errors.add("subscription_id", "Required for SUBSCRIPTION and OVERAGE requests.");
  if (!draft.type.empty() && !is_cycle_request(draft.type) && draft.has_grace_period)
    errors.add("grace_period_ends_at", "Only SUBSCRIPTION and OVERAGE requests have one.");
}

subscription_transition after_payment_change(std::string_view subscription_status,
                                             std::string_view request_type,
                                             std::string_view request_status,
                                             int64_t unresolved_cycle) {
  subscription_transition t{std::string{subscription_status}};
  if (request_status == "OVERDUE" && is_cycle_request(request_type) &&
      subscription_status == "active") {
    t.status = "past_due";
    t.pause_campaigns = true;
  } else if (request_status == "PAID" && subscription_status == "past_due" &&
             unresolved_cycle == 0) {
    t.status = "active";
    t.resume_campaigns = true;
  }
  return t;
}

minute_balance consume(minute_balance b, int64_t minutes) noexcept {
  auto included_left = std::max<int64_t>(b.included_limit - b.included_used, 0);
  auto from_included = std::min(minutes, included_left);
  b.included_used += from_included;
  minutes -= from_included;
  auto from_addon = std::min(minutes, b.addon_balance);
  b.addon_balance -= from_addon;
  b.billable_used += minutes - from_addon;
  return b;
}

bool minutes_used_up(const minute_balance& b) noexcept {
  return b.included_limit > 0 && b.included_used >= b.included_limit && b.addon_balance <= 0;
}

bool minutes_exhausted(const minute_balance& b, int64_t minute_price_units) noexcept {
  return minute_price_units == 0 && minutes_used_up(b);
}

billing_interval interval_of(const std::optional<std::string>& text) noexcept {
  if (text == "day")
    return billing_interval::day;
  if (text == "week")
    return billing_interval::week;
  if (text == "year")
    return billing_interval::year;
  return billing_interval::month;
}

timestamp add_intervals(timestamp anchor, billing_interval unit, int64_t n) {
  using namespace std::chrono;
  switch (unit) {
  case billing_interval::day:
    return anchor + days{n};
  case billing_interval::week:
    return anchor + weeks{n};
  case billing_interval::month:
  case billing_interval::year:
    break;
  }
  auto day_start = floor<days>(anchor);
  auto time_of_day = anchor - day_start;
  year_month_day ymd{day_start};
  auto moved = ymd.year() / ymd.month() + months{unit == billing_interval::year ? 12 * n : n};
  auto last = year_month_day_last{moved.year(), month_day_last{moved.month()}}.day();
  year_month_day target{moved.year(), moved.month(), std::min(ymd.day(), last)};
  return sys_days{target} + time_of_day;
}

timestamp next_period_end(timestamp anchor, billing_interval unit, timestamp period_end) {
  // Day and week periods have a fixed length: jump straight there.
  int64_t n = 1;
  if (unit == billing_interval::day || unit == billing_interval::week) {
    auto length = unit == billing_interval::day ? std::chrono::microseconds{std::chrono::days{1}}
                                                : std::chrono::microseconds{std::chrono::weeks{1}};
    if (period_end > anchor)
      n = (period_end - anchor) / length;
  } else if (period_end > anchor) {
    using namespace std::chrono;
    year_month_day a{floor<days>(anchor)}, e{floor<days>(period_end)};
    n = (int{e.year()} - int{a.year()}) * 12 +
        (static_cast<int>(unsigned{e.month()}) - static_cast<int>(unsigned{a.month()}));
    if (unit == billing_interval::year)
      n /= 12;
  }
  n = std::max<int64_t>(n, 1);
  auto end = add_intervals(anchor, unit, n);
  while (end <= period_end)
    end = add_intervals(anchor, unit, ++n);
  return end;
}

namespace {

// Scale-4 currency amounts to cents, half up.
int64_t round_to_cents(__int128 units_of_scale) noexcept {
  return static_cast<int64_t>((units_of_scale + 50) / 100);
}

} // namespace

int64_t overage_cents(int64_t billable_hundredths, int64_t minute_price_units) noexcept {
  // hundredths of a minute x 10^-4 per minute = 10^-6 of the currency unit.
  __int128 millionths = static_cast<__int128>(billable_hundredths) * minute_price_units;
  return static_cast<int64_t>((millionths + 5'000) / 10'000);
}

int64_t flat_cents(const std::vector<int64_t>& price_units) noexcept {
  __int128 sum = 0;
  for (auto p : price_units)
    sum += p;
  return round_to_cents(sum);
}

} // namespace vcs::domain
