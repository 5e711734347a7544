#pragma once

// One page of a list in the contract's `{data, meta: {total, page,
// page_size}}` style: what is asked for and what comes back.

#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace vcs::storage {

// The lists the service adds to the contract (campaigns, calls, webhook
// deliveries) count at most this many matching rows, so that a page costs
// the same however many rows match: past it, `total` says this many and
// `total_capped` is true.
inline constexpr int64_t counted_rows_max = 10'000;

struct page_request {
  int64_t page = 1;
  int64_t page_size = 20;
};

template <class T> struct page_of {
  int64_t total = 0;
  // Set for the lists whose count stops at counted_rows_max.
  std::optional<bool> total_capped;
  std::vector<T> items;
};

// Where a newest-first list resumes: after the row with this creation time
// and id. Read by key, not by offset, each batch costs the same however far
// into the list it is.
struct newest_first_cursor {
  domain::timestamp created_at;
  int64_t id = 0;
};

// Rows read at once when a whole list is answered batch by batch.
inline constexpr int64_t list_batch_rows = 1000;

// The rows skipped before the page (the reader bounds it to an int64).
inline int64_t offset_of(const page_request& page) {
  return (page.page - 1) * page.page_size;
}

} // namespace vcs::storage
