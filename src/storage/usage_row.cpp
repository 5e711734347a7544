#include "storage/usage_row.hpp"

namespace vcs::storage {

namespace {

// The columns of VCS_USAGE_COLUMNS, in order.
namespace usage_col {
enum : int {
  client_id,
  client_name,
  subscription_id,
  minutes_included_limit,
  minutes_included_used,
  minutes_addon_balance,
  minutes_billable_used,
  current_period_start,
  current_period_end,
  updated_at
};
} // namespace usage_col

} // namespace

domain::usage_record usage_row(const pg_rows& rows, int row) {
  domain::usage_record u;
  u.client_id = rows.int64(row, usage_col::client_id);
  u.client_name = rows.text(row, usage_col::client_name);
  u.subscription_id = rows.int64(row, usage_col::subscription_id);
  u.minutes_included_limit = rows.text(row, usage_col::minutes_included_limit);
  u.minutes_included_used = rows.text(row, usage_col::minutes_included_used);
  u.minutes_addon_balance = rows.text(row, usage_col::minutes_addon_balance);
  u.minutes_billable_used = rows.text(row, usage_col::minutes_billable_used);
  u.current_period_start = rows.timestamp(row, usage_col::current_period_start);
  u.current_period_end = rows.timestamp(row, usage_col::current_period_end);
  u.updated_at = rows.timestamp(row, usage_col::updated_at);
  return u;
}

} // namespace vcs::storage
