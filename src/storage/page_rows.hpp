#pragma once

// A page read as two statements: the total (counted first) and the page's
// rows, each row turned into an item by `read`.

#include "storage/page.hpp"
#include "storage/prepared.hpp"

namespace vcs::storage {

template <class Read> auto page_from(const pg_rows& total, const pg_rows& rows, Read read) {
  page_of<decltype(read(rows, 0))> out;
  out.total = total.int64(0, 0);
  out.items.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i)
    out.items.push_back(read(rows, i));
  return out;
}

// The same with a total counted by VCS_COUNT_AT_MOST, which stops one row
// past counted_rows_max.
template <class Read> auto capped_page_from(const pg_rows& total, const pg_rows& rows, Read read) {
  auto out = page_from(total, rows, read);
  out.total_capped = out.total > counted_rows_max;
  if (*out.total_capped)
    out.total = counted_rows_max;
  return out;
}

} // namespace vcs::storage

// Counts the rows of `from_where` (" FROM ... WHERE ..."), stopping one
// past counted_rows_max.
#define VCS_COUNT_AT_MOST(from_where)                                                              \
  "SELECT count(*) FROM (SELECT 1" from_where " LIMIT 10001) counted"
static_assert(vcs::storage::counted_rows_max == 10'000, "VCS_COUNT_AT_MOST spells it");
