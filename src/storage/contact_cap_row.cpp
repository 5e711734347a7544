#include "storage/contact_cap_row.hpp"

namespace vcs::storage {

std::optional<domain::tenant_contact_cap> contact_cap_of(const pg_rows& rows, int row,
                                                         int calls_col) {
  const auto calls = rows.opt_int32(row, calls_col);
  const auto hours = rows.opt_int32(row, calls_col + 1);
  if (!calls || !hours)
    return std::nullopt;
  return domain::tenant_contact_cap{*calls, std::chrono::hours{*hours}};
}

} // namespace vcs::storage
