#pragma once

// One page of a list in the contract's `{data, meta: {total, page,
// page_size}}` style: what is asked for and what comes back.

#include <cstdint>
#include <vector>

namespace vcs::storage {

struct page_request {
  int64_t page = 1;
  int64_t page_size = 20;
};

template <class T> struct page_of {
  int64_t total = 0;
  std::vector<T> items;
};

// The rows skipped before the page (the reader bounds it to an int64).
inline int64_t offset_of(const page_request& page) {
  return (page.page - 1) * page.page_size;
}

} // namespace vcs::storage
