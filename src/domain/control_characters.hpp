#pragma once

#include <algorithm>
#include <string_view>

namespace vcs::domain {

// True when text holds a control character (0x00-0x1F, DEL). Such a value
// may not become a credential or an outbound header value, where CR and LF
// would start a header of the writer's choosing.
inline bool has_control_character(std::string_view text) noexcept {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

} // namespace vcs::domain
