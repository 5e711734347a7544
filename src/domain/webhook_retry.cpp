#include "domain/webhook_retry.hpp"

#include "domain/duration_text.hpp"
#include "domain/trim.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace vcs::domain {
namespace {

using std::chrono::milliseconds;

constexpr std::size_t max_waits = 50;
constexpr milliseconds max_wait = std::chrono::hours{24 * 7};

} // namespace

std::optional<retry_schedule> parse_retry_schedule(std::string_view text) {
  retry_schedule out;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = trim_spaces(text.substr(start, comma - start));
    start = comma + 1;
    const auto wait = parse_duration(item, max_wait);
    if (!wait || out.size() == max_waits)
      return std::nullopt;
    out.push_back(*wait);
  }
  return out;
}

std::string format_retry_schedule(const retry_schedule& schedule) {
  std::string out;
  for (const auto wait : schedule) {
    if (!out.empty())
      out += ',';
    // Hours at most: "24h" reads better in a schedule than "1d".
    out += format_duration(wait, false);
  }
  return out;
}

std::optional<milliseconds> retry_delay(const retry_schedule& schedule, int32_t attempts_made,
                                        double jitter_fraction) {
  if (attempts_made < 1 || static_cast<std::size_t>(attempts_made) > schedule.size())
    return std::nullopt;
  const double stretch = 1.0 + webhook_retry_jitter * std::clamp(jitter_fraction, 0.0, 1.0);
  const auto wait = schedule[static_cast<std::size_t>(attempts_made) - 1];
  return milliseconds{
      static_cast<int64_t>(std::llround(static_cast<double>(wait.count()) * stretch))};
}

milliseconds retry_span(const retry_schedule& schedule) {
  return std::accumulate(schedule.begin(), schedule.end(), milliseconds{0});
}

} // namespace vcs::domain
