#pragma once

// A tenant's own contact cap: at most `calls` calls to a number in any
// `window`, counted across all of its campaigns like the calling rules'
// caps (domain/contact_caps.hpp), whatever a campaign's calling_purpose.
// An operator sets it (PATCH /admin/v1/tenants/{tenant_id}, contact_cap).

#include <chrono>
#include <cstdint>

namespace vcs::domain {

struct tenant_contact_cap {
  int32_t calls = 0;
  std::chrono::hours window{0};
};

// A dial pass reads up to `calls` instants of each candidate's number
// within `window`: both stay small.
inline constexpr int32_t max_tenant_cap_calls = 50;
inline constexpr int32_t max_tenant_cap_hours = 30 * 24;

} // namespace vcs::domain
