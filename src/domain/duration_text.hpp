#pragma once

// Durations as people write them in settings: "500ms", "5s", "30m", "2h",
// "90d".

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

// A positive whole number and a unit (ms, s, m, h or d), at most `max`;
// nullopt otherwise.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text,
                                                        std::chrono::milliseconds max);

// `d` in its largest whole unit, up to hours (`days` false) or days.
std::string format_duration(std::chrono::milliseconds d, bool days);

} // namespace vcs::domain
