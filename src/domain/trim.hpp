#pragma once

#include <string_view>

namespace vcs::domain {

// `text` without the spaces (only ' ') at either end.
inline std::string_view trim_spaces(std::string_view text) noexcept {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos)
    return {};
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

} // namespace vcs::domain
