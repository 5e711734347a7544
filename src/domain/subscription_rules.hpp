#pragma once

// The billing rules of a subscription, free of storage: which payment
// requests bill the cycle, what a payment status change does to the
// subscription, the consumption order of call minutes, billing periods and
// the amounts of the requests a period end issues.

#include "domain/error.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

// SUBSCRIPTION and OVERAGE bill the subscription's cycle and move its
// status; ADDON and ONE_TIME are charges beside the cycle and never do.
bool is_cycle_request(std::string_view type) noexcept;

// What a new payment request's fields say of each other (each field's own
// form is checked where it is read; a field missing or malformed is left
// out here): its period does not end before it starts; a cycle request
// belongs to a subscription, and only a cycle request has a grace period.
// `names_subscription`: a subscription was given, even one that did not
// parse.
struct payment_request_draft {
  std::string_view type;
  bool names_subscription = false;
  bool has_grace_period = false;
  std::optional<timestamp> period_start;
  std::optional<timestamp> period_end;
};
void validate_payment_request(const payment_request_draft& draft, field_errors& errors);

// What a subscription does after one of its payment requests changed.
struct subscription_transition {
  std::string status;            // the subscription's next status
  bool pause_campaigns = false;  // entering past_due
  bool resume_campaigns = false; // back to active
};

// `unresolved_cycle` counts the subscription's cycle requests that are
// PENDING or OVERDUE after the change (the spec's "no linked cycle request
// remains PENDING or OVERDUE").
subscription_transition after_payment_change(std::string_view subscription_status,
                                             std::string_view request_type,
                                             std::string_view request_status,
                                             int64_t unresolved_cycle);

// Minutes in hundredths, the unit every balance is kept in.
struct minute_balance {
  int64_t included_limit = 0;
  int64_t included_used = 0;
  int64_t addon_balance = 0;
  int64_t billable_used = 0;

  bool operator==(const minute_balance&) const = default;
};

// Applies `minutes` of calls: first what is left of the included limit, then
// the add-on balance, and whatever remains is billable.
minute_balance consume(minute_balance b, int64_t minutes) noexcept;

// True when the period includes minutes and they and the add-on minutes
// are used up.
bool minutes_used_up(const minute_balance& b) noexcept;

// True when calls may not go on for want of minutes: the minutes are used
// up and the product sets no price per additional minute
// (`minute_price_units`, scale 4), so nothing beyond them can be billed. A
// product with neither a minute price nor included minutes is not metered.
bool minutes_exhausted(const minute_balance& b, int64_t minute_price_units) noexcept;

enum class billing_interval : uint8_t { day, week, month, year };

// "day", "week", "month" or "year"; a price without interval bills monthly.
billing_interval interval_of(const std::optional<std::string>& text) noexcept;

// `anchor` plus `n` intervals. Months and years count from the anchor, so a
// period anchored on the 31st ends on the last day of shorter months and on
// the 31st again when the month has one.
timestamp add_intervals(timestamp anchor, billing_interval unit, int64_t n);

// The end of the period that follows one ending at `period_end`: the first
// anchor boundary after it.
timestamp next_period_end(timestamp anchor, billing_interval unit, timestamp period_end);

// Money in hundredths of the currency unit from per-unit prices at scale 4
// (the catalog's precision), rounded half up: the overage of `billable`
// hundredths of a minute at `minute_price`, and the sum of flat prices.
int64_t overage_cents(int64_t billable_hundredths, int64_t minute_price_units) noexcept;
int64_t flat_cents(const std::vector<int64_t>& price_units) noexcept;

} // namespace vcs::domain
