#pragma once

// What a voice provider reports about a call when it ends (provider_a's
// end-of-call report: its analysis and artifact), as the service keeps it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

// Every field is stored as the provider sent it (text is never
// interpreted), or absent.
struct call_result {
  std::optional<std::string> summary;
  std::optional<std::string> transcript;
  std::optional<std::string> recording_url;
  std::optional<std::string> success_evaluation;
  // A JSON object's text.
  std::optional<std::string> structured_data;
  std::optional<std::string> ended_reason;
  // Decimal text with four decimals, in the provider's currency.
  std::optional<std::string> cost;
};

// The largest value kept of each field, in bytes
// (docs/decisions/dialer-and-webhooks.md).
namespace call_result_limits {
inline constexpr std::size_t summary = 8 * 1024;
inline constexpr std::size_t transcript = 256 * 1024;
inline constexpr std::size_t recording_url = 2048;
inline constexpr std::size_t success_evaluation = 256;
inline constexpr std::size_t structured_data = 16 * 1024;
inline constexpr std::size_t ended_reason = 256;
// The largest cost kept: a call costing more is a provider's mistake.
inline constexpr double cost = 100'000;
} // namespace call_result_limits

// Drops each field over its limit, and a recording_url that is not an
// absolute http(s) URL; returns the names of the fields dropped.
std::vector<std::string> keep_within_limits(call_result& r);

// A cost as stored: four decimals, or nullopt when negative, not finite or
// over the limit.
std::optional<std::string> cost_text(double cost);

// The evaluation a simulated call reports on `attempt` (from 1): the
// attempt's item of a comma-separated list, the last one repeating;
// nullopt for an empty list or item.
std::optional<std::string> scripted_evaluation(std::string_view list, int32_t attempt);

// What a success evaluation says, for the client detail's counts: its
// text read case-insensitively ("true", "pass", "success", "yes" and their
// opposites); a score or a grade is `unclear`.
enum class evaluation_verdict : uint8_t { success, failure, unclear };

evaluation_verdict verdict_of(std::string_view evaluation) noexcept;
std::string_view to_string(evaluation_verdict v) noexcept;

} // namespace vcs::domain
