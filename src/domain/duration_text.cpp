#include "domain/duration_text.hpp"

#include <charconv>
#include <cstdint>

namespace vcs::domain {

namespace {

using std::chrono::milliseconds;

struct unit {
  std::string_view suffix;
  milliseconds size;
};

// Longest suffix first where one ends another ("ms" before "s").
constexpr unit units[] = {{"ms", milliseconds{1}},
                          {"s", std::chrono::seconds{1}},
                          {"m", std::chrono::minutes{1}},
                          {"h", std::chrono::hours{1}},
                          {"d", std::chrono::hours{24}}};

} // namespace

std::optional<milliseconds> parse_duration(std::string_view text, milliseconds max) {
  for (const auto& u : units) {
    if (text.size() <= u.suffix.size() || text.substr(text.size() - u.suffix.size()) != u.suffix)
      continue;
    const std::string_view digits = text.substr(0, text.size() - u.suffix.size());
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc{} || end != digits.data() + digits.size() || n < 1 || n > max / u.size)
      return std::nullopt;
    return u.size * n;
  }
  return std::nullopt;
}

std::string format_duration(milliseconds d, bool days) {
  const unit* best = &units[0];
  for (const auto& u : units)
    if ((days || u.suffix != "d") && d % u.size == milliseconds{0})
      best = &u;
  return std::to_string(d / best->size) + std::string{best->suffix};
}

} // namespace vcs::domain
