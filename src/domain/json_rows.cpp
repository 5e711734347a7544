#include "domain/json_rows.hpp"

#include <algorithm>
#include <string_view>

namespace vcs::domain {

std::string json_rows::head(std::size_t n) const {
  n = std::min(n, size());
  if (n == size())
    return text;
  if (n == 0)
    return "[]";
  return std::string{std::string_view{text}.substr(0, ends[n - 1])} + ']';
}

std::string json_rows::tail(std::size_t n) const {
  if (n == 0)
    return text;
  if (n >= size())
    return "[]";
  // Past row n - 1's end comes the comma before row n.
  return '[' + std::string{std::string_view{text}.substr(ends[n - 1] + 1)};
}

} // namespace vcs::domain
