#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

// Every instant the service handles, in UTC with microsecond precision
// (PostgreSQL's timestamptz resolution).
using timestamp = std::chrono::sys_time<std::chrono::microseconds>;

timestamp now() noexcept;

// PostgreSQL's text output of a timestamptz in a session with TimeZone=UTC
// and DateStyle=ISO: "2026-11-21 20:25:26.123456+00" (fraction optional,
// offset "+00", "+00:00" or "+05:30" accepted).
std::optional<timestamp> parse_pg_timestamp(std::string_view text) noexcept;

// The spec's three timestamp styles:
// - other timestamps, ISO 8601 UTC:    2026-11-21T20:25:26.123456Z
std::string format_utc(timestamp t);
// - lead timestamps, ISO 8601 offset:  2026-11-21T20:25:26.123456+00:00
std::string format_offset(timestamp t);
// - billing timestamps, no zone:       2026-11-21T20:25:26
std::string format_billing(timestamp t);

// ISO 8601 input: "YYYY-MM-DDTHH:MM:SS[.frac][Z|±HH:MM]" (a space may replace
// the T); without zone the value is taken as UTC; a date alone means
// midnight UTC. nullopt outside years 1 to 9999 UTC (offset applied).
std::optional<timestamp> parse_iso8601(std::string_view text) noexcept;
// The same, but only a date and time with its zone (Z or ±HH:MM): an
// instant that must not depend on whose clock reads it (a key's expiry).
std::optional<timestamp> parse_iso8601_instant(std::string_view text) noexcept;

// Whole unix seconds written as 1 to 18 decimal digits (no sign, no
// spaces: more digits could overflow); nullopt otherwise.
std::optional<int64_t> parse_unix_seconds(std::string_view text) noexcept;

// The text PostgreSQL accepts for a timestamptz parameter.
std::string to_pg_timestamp(timestamp t);

} // namespace vcs::domain
