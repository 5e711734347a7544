#pragma once

#include <cstdint>

namespace vcs::domain {

// Paging of the lists in the contract's `{data, meta}` style (billing,
// campaigns, calls, imports, deliveries): page >= 1 (default 1), page_size
// 1..100 (default 20).
inline constexpr int64_t default_page_size = 20;
inline constexpr int64_t max_page_size = 100;

} // namespace vcs::domain
