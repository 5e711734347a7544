#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

// 0..15 for a hex digit of either case, -1 otherwise.
int hex_digit_value(char c) noexcept;

// Lower-case hex of raw bytes, and back (nullopt on odd length or non-hex).
std::string to_hex(std::string_view bytes);
std::optional<std::string> from_hex(std::string_view hex);

} // namespace vcs::domain
