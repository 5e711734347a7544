#pragma once

// One usage balance with its client's name, as the usage list and the
// subscription's minute accounting both read it: select VCS_USAGE_COLUMNS
// from usage_balances u joined to clients c, then read it with usage_row.

#include "domain/billing_records.hpp"
#include "storage/prepared.hpp"

#define VCS_USAGE_COLUMNS                                                                          \
  "u.client_id, c.name, u.subscription_id, u.minutes_included_limit, u.minutes_included_used, "    \
  "u.minutes_addon_balance, u.minutes_billable_used, u.current_period_start, "                     \
  "u.current_period_end, u.updated_at"

namespace vcs::storage {

domain::usage_record usage_row(const pg_rows& rows, int row);

} // namespace vcs::storage
