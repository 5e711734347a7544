#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace vcs::domain {

// A JSON array of rows as text, with where each row ends, so that it can
// be cut at any row without being parsed again.
struct json_rows {
  std::string text = "[]";
  std::vector<std::size_t> ends; // offset in `text` just past each row

  std::size_t size() const noexcept { return ends.size(); }
  // Rows [begin, end) as a JSON array (bounds past size() are cut to it).
  std::string slice(std::size_t begin, std::size_t end) const;
};

} // namespace vcs::domain
