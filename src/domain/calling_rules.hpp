#pragma once

// The calling rules the service knows: data/calling_rules/rules.json,
// compiled into the binary (src/domain/CMakeLists.txt) so that every node
// of a release applies the same rules. No rule is written in code; this
// file only says how a rule of each kind reads. The rules are a safety net
// for tenants, not legal advice (docs/decisions/calling-rules.md).

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <date/date.h>

namespace vcs::domain {

// What a campaign's calls are, as the rules distinguish them. none: the
// tenant takes its own advice and no rule is applied.
enum class calling_purpose : uint8_t { none, telemarketing, informational };

// The API's names: NONE, TELEMARKETING, INFORMATIONAL.
std::string_view to_string(calling_purpose p) noexcept;
std::optional<calling_purpose> parse_calling_purpose(std::string_view text) noexcept;

enum class calling_rule_kind : uint8_t { hours, day_ban, contact_cap };

// hours, day_ban, contact_cap (the data's names).
std::string_view to_string(calling_rule_kind k) noexcept;

struct calling_rule {
  std::string id;
  std::string country; // ISO 3166-1 alpha-2
  std::string region;  // ISO 3166-2 subdivision without the country; empty: the whole country
  bool telemarketing = false;
  bool informational = false;
  calling_rule_kind kind = calling_rule_kind::hours;
  // hours: the allowed local times of each weekday, [start, end), indexed
  // by weekday::c_encoding() (Sunday = 0); a day without ranges allows none.
  using range = std::pair<std::chrono::minutes, std::chrono::minutes>;
  std::array<std::vector<range>, 7> hours;
  // day_ban: bit (1 << c_encoding()) for each banned weekday.
  uint8_t banned_weekdays = 0;
  // contact_cap: at most `cap_calls` calls in any `cap_window`.
  int32_t cap_calls = 0;
  std::chrono::hours cap_window{0};
  // In force on local days in [effective_from, effective_to).
  date::sys_days effective_from{};
  std::optional<date::sys_days> effective_to;
  std::string source_title;
  std::string source_url;

  // "US" or "US-FL".
  std::string jurisdiction() const;
  bool governs(calling_purpose p) const noexcept;
  bool in_force_on(date::sys_days local_day) const noexcept;
  // An hours rule's or a day ban's verdict at a local weekday
  // (c_encoding) and time of day; a contact cap allows every instant.
  bool allows_at(unsigned weekday, std::chrono::microseconds time_of_day) const noexcept;
};

struct calling_rule_book {
  std::string version;
  std::string reviewed_on;
  std::string notice;
  std::vector<calling_rule> rules;
  // The data's country_zones: each tz zone of a country the rules cover,
  // with that country (ISO 3166-1 alpha-2).
  std::map<std::string, std::string, std::less<>> zone_country;

  // The country of a tz zone name, when the data lists it.
  std::optional<std::string_view> country_of_zone(std::string_view zone) const;
};

// The rules of the data text; throws std::invalid_argument naming the
// first rule that does not read (the build's own data always reads: ctest
// calling_rules_data checks it, and the unit tests load it).
calling_rule_book parse_calling_rule_book(std::string_view json);

// The data compiled into this binary, read once.
const calling_rule_book& calling_rules();

} // namespace vcs::domain
