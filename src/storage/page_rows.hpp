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

} // namespace vcs::storage
