#pragma once

// When a failed webhook delivery is tried again: a schedule of waits
// spanning days (Standard Webhooks' example by default), each stretched by
// random jitter so that receivers recovering from an outage are not hit by
// every retry at once.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

using retry_schedule = std::vector<std::chrono::milliseconds>;

// 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h: ten attempts over
// 75 h 35 min 5 s, so a delivery is tried for more than three days.
inline constexpr std::string_view default_webhook_retry_schedule =
    "5s,5m,30m,2h,5h,10h,14h,20h,24h";

// Jitter stretches a wait by up to this share, never shortens it: the
// schedule's span is a lower bound.
inline constexpr double webhook_retry_jitter = 0.2;

// Comma-separated waits, each a positive whole number and a unit (ms, s, m,
// h or d), at most 7 days each and 50 in all; nullopt otherwise.
std::optional<retry_schedule> parse_retry_schedule(std::string_view text);

// The schedule in the form parse_retry_schedule reads, each wait in its
// largest whole unit up to hours.
std::string format_retry_schedule(const retry_schedule& schedule);

// The wait after `attempts_made` failed attempts (1 for the first), times
// 1 + webhook_retry_jitter * jitter_fraction (in [0, 1)); nullopt once the
// schedule is spent: the delivery is dead.
std::optional<std::chrono::milliseconds> retry_delay(const retry_schedule& schedule,
                                                     int32_t attempts_made, double jitter_fraction);

// The least time from a delivery's first attempt to its last.
std::chrono::milliseconds retry_span(const retry_schedule& schedule);

} // namespace vcs::domain
