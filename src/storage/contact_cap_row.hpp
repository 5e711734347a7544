#pragma once

// A tenant's contact cap as tenants keeps it (migration 0042): two columns,
// calls then hours, both null for none. The tenant read and the campaign
// read (which carries its tenant's cap) both read it with contact_cap_of.

#include "domain/tenant_contact_cap.hpp"
#include "storage/prepared.hpp"

#include <optional>

namespace vcs::storage {

// From the columns `calls_col` (calls) and `calls_col + 1` (hours).
std::optional<domain::tenant_contact_cap> contact_cap_of(const pg_rows& rows, int row,
                                                         int calls_col);

} // namespace vcs::storage
