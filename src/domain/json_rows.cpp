#include "domain/json_rows.hpp"

#include <algorithm>
#include <string_view>

namespace vcs::domain {

std::string json_rows::slice(std::size_t begin, std::size_t end) const {
  end = std::min(end, size());
  if (begin >= end)
    return "[]";
  if (begin == 0 && end == size())
    return text;
  // Row i starts after the comma that follows row i - 1 (the first after
  // the '['); it ends at ends[i].
  const auto from = begin == 0 ? 1 : ends[begin - 1] + 1;
  std::string out;
  out.reserve(ends[end - 1] - from + 2);
  out += '[';
  out += std::string_view{text}.substr(from, ends[end - 1] - from);
  out += ']';
  return out;
}

} // namespace vcs::domain
