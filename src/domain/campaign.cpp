#include "domain/campaign.hpp"

#include "domain/global_id.hpp"
#include "domain/url.hpp"

#include <algorithm>
#include <array>
#include <string>

#include <date/date.h>
#include <date/tz.h>

namespace vcs::domain {
namespace {

constexpr std::array<campaign_status, 5> all_statuses{
    campaign_status::draft, campaign_status::scheduled, campaign_status::active,
    campaign_status::paused, campaign_status::ended};

template <std::size_t N> using names = std::array<std::string_view, N>;

constexpr names<2> campaign_types{"OUTBOUND", "INBOUND"};
constexpr names<2> dialer_types{"SINGLE", "POOL"};
constexpr names<3> calling_entities{"ASSISTANT", "WORKFLOW", "SQUAD"};
constexpr names<7> day_names{"MONDAY", "TUESDAY",  "WEDNESDAY", "THURSDAY",
                             "FRIDAY", "SATURDAY", "SUNDAY"};

constexpr const char* required_message = "This field is required.";
constexpr const char* blank_message = "This field may not be blank.";
constexpr const char* date_message = "Enter a valid date in YYYY-MM-DD format.";
constexpr const char* time_message = "Enter a valid time in HH:MM (24-hour) format.";
constexpr const char* days_message =
    "Must be a non-empty list of upper-case day names (MONDAY..SUNDAY).";

// ---- text helpers --------------------------------------------------------

// Value of a short run of decimal digits; -1 when empty or not all digits.
int digits_value(std::string_view text) noexcept {
  if (text.empty())
    return -1;
  int value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9')
      return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

bool is_blank(std::string_view text) noexcept {
  return text.find_first_not_of(" \t\n\r\f\v") == std::string_view::npos;
}

// Limits are worded in characters, so count UTF-8 code points, not bytes.
std::size_t character_count(std::string_view text) noexcept {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

template <std::size_t N> bool is_one_of(std::string_view value, const names<N>& allowed) {
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

template <std::size_t N> std::string one_of_message(const names<N>& allowed) {
  std::string message = "Must be one of ";
  for (std::size_t i = 0; i < N; ++i) {
    message += i == 0 ? "" : ", ";
    message += allowed[i];
  }
  return message + ".";
}

// ---- field checks ----------------------------------------------------------

} // namespace

bool check_text(const char* field, std::string_view value, std::size_t max_length,
                field_errors& errors) {
  if (is_blank(value)) {
    errors.add(field, blank_message);
    return false;
  }
  if (character_count(value) > max_length) {
    errors.add(field,
               "Ensure this field has no more than " + std::to_string(max_length) + " characters.");
    return false;
  }
  return true;
}

namespace {

template <std::size_t N>
void check_choice(const char* field, const std::optional<std::string>& value,
                  const names<N>& allowed, field_errors& errors) {
  if (value && !is_one_of(*value, allowed))
    errors.add(field, one_of_message(allowed));
}

// True when the value is given and inside [low, high]; `unit` completes the
// message (" minutes").
bool check_range(const char* field, std::optional<int32_t> value, int32_t low, int32_t high,
                 field_errors& errors, std::string_view unit = {}) {
  if (!value)
    return false;
  if (*value >= low && *value <= high)
    return true;
  errors.add(field, "Must be between " + std::to_string(low) + " and " + std::to_string(high) +
                        std::string{unit} + ".");
  return false;
}

// True when the value is given and satisfies `rule`.
template <class Rule>
bool check_format(const char* field, const std::optional<std::string>& value, Rule rule,
                  const char* message, field_errors& errors) {
  if (!value)
    return false;
  if (rule(*value))
    return true;
  errors.add(field, message);
  return false;
}

void check_name(const campaign_fields& f, bool creating, field_errors& errors) {
  if (f.name)
    check_text("name", *f.name, name_max_length, errors);
  else if (creating)
    errors.add("name", required_message);
}

void check_ids(const campaign_fields& f, field_errors& errors) {
  if (f.assistant_id)
    check_text("assistant_id", *f.assistant_id, id_field_max_length, errors);
  if (f.phone_number_id)
    check_text("phone_number_id", *f.phone_number_id, id_field_max_length, errors);
  if (f.phone_number_pool_id &&
      !decode_global_id(entity::phone_number_pool, *f.phone_number_pool_id))
    errors.add("phone_number_pool_id", "Enter a valid phone number pool id.");
}

void check_dates(const campaign_fields& f, field_errors& errors) {
  const bool start_ok =
      check_format("start_date", f.start_date, is_calendar_date, date_message, errors);
  const bool end_ok = check_format("end_date", f.end_date, is_calendar_date, date_message, errors);
  // Valid "YYYY-MM-DD" strings order like the dates they name.
  if (start_ok && end_ok && *f.end_date < *f.start_date)
    errors.add("end_date", "End date cannot be before start date.");
}

void check_days(const std::vector<std::string>& days, field_errors& errors) {
  const auto is_day = [](const std::string& day) { return is_one_of(day, day_names); };
  if (days.empty() || !std::all_of(days.begin(), days.end(), is_day)) {
    errors.add("days_of_week", days_message);
    return;
  }
  std::array<int, day_names.size()> seen{};
  for (const auto& day : days) {
    const auto index = std::find(day_names.begin(), day_names.end(), day) - day_names.begin();
    if (++seen[static_cast<std::size_t>(index)] == 2) // once per repeated day
      errors.add("days_of_week", "Duplicate day: " + day + ".");
  }
}

void check_schedule(const campaign_fields& f, field_errors& errors) {
  check_format("timezone", f.timezone, is_iana_zone, "Unknown time zone.", errors);
  if (f.days_of_week)
    check_days(*f.days_of_week, errors);
  const bool start_ok =
      check_format("daily_start_time", f.daily_start_time, is_clock_time, time_message, errors);
  const bool end_ok =
      check_format("daily_end_time", f.daily_end_time, is_clock_time, time_message, errors);
  // Valid "HH:MM" strings order like the times they name.
  if (start_ok && end_ok && *f.daily_end_time <= *f.daily_start_time)
    errors.add("daily_end_time", "Daily end time must be after daily start time.");
  if (f.calling_purpose && !parse_calling_purpose(*f.calling_purpose))
    errors.add("calling_purpose", "Choose NONE, TELEMARKETING or INFORMATIONAL.");
}

void check_attempts(const campaign_fields& f, field_errors& errors) {
  const bool total_ok =
      check_range("max_call_attempts", f.max_call_attempts, 1, max_call_attempts_limit, errors);
  const bool daily_ok =
      check_range("max_daily_attempts", f.max_daily_attempts, 1, max_daily_attempts_limit, errors);
  if (total_ok && daily_ok && *f.max_daily_attempts > *f.max_call_attempts)
    errors.add("max_daily_attempts", "Cannot exceed max_call_attempts.");
  check_range("min_gap_between_attempts", f.min_gap_between_attempts, min_gap_minutes_floor,
              min_gap_minutes_ceiling, errors, " minutes");
  check_range("failure_breaker_calls", f.failure_breaker_calls, 0, failure_breaker_calls_limit,
              errors);
  check_range("failure_breaker_percent", f.failure_breaker_percent, 1, 100, errors);
}

void check_webhook(const campaign_fields& f, field_errors& errors) {
  if (f.webhook_url && check_text("webhook_url", *f.webhook_url, webhook_url_max_length, errors) &&
      !is_http_url(*f.webhook_url))
    errors.add("webhook_url", "Enter a valid http or https URL.");
}

} // namespace

std::string_view to_string(campaign_status s) noexcept {
  switch (s) {
  case campaign_status::draft:
    return "DRAFT";
  case campaign_status::scheduled:
    return "SCHEDULED";
  case campaign_status::active:
    return "ACTIVE";
  case campaign_status::paused:
    return "PAUSED";
  case campaign_status::ended:
    return "ENDED";
  }
  return {};
}

std::string_view to_string(pause_reason r) noexcept {
  switch (r) {
  case pause_reason::manual:
    return "manual";
  case pause_reason::billing:
    return "billing";
  case pause_reason::usage_exhausted:
    return "usage_exhausted";
  case pause_reason::failure_breaker:
    return "failure_breaker";
  case pause_reason::provider_credentials:
    return "provider_credentials";
  }
  return {};
}

std::string_view to_string(status_cause c) noexcept {
  switch (c) {
  case status_cause::manual:
    return "manual";
  case status_cause::schedule:
    return "schedule";
  case status_cause::billing:
    return "billing";
  case status_cause::usage:
    return "usage";
  case status_cause::failure_breaker:
    return "failure_breaker";
  case status_cause::provider_credentials:
    return "provider_credentials";
  }
  return {};
}

status_cause cause_of(pause_reason r) noexcept {
  switch (r) {
  case pause_reason::manual:
    return status_cause::manual;
  case pause_reason::billing:
    return status_cause::billing;
  case pause_reason::usage_exhausted:
    return status_cause::usage;
  case pause_reason::failure_breaker:
    return status_cause::failure_breaker;
  case pause_reason::provider_credentials:
    return status_cause::provider_credentials;
  }
  return status_cause::manual;
}

std::optional<pause_reason> parse_pause_reason(std::string_view text) noexcept {
  for (const auto r : {pause_reason::manual, pause_reason::billing, pause_reason::usage_exhausted,
                       pause_reason::failure_breaker, pause_reason::provider_credentials})
    if (to_string(r) == text)
      return r;
  return std::nullopt;
}

std::optional<campaign_status> parse_campaign_status(std::string_view text) noexcept {
  for (const campaign_status s : all_statuses)
    if (to_string(s) == text)
      return s;
  return std::nullopt;
}

const std::vector<std::string>& campaign_status_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const campaign_status s : all_statuses)
      out.emplace_back(to_string(s));
    return out;
  }();
  return names;
}

const std::vector<std::string>& campaign_type_names() {
  static const std::vector<std::string> names{campaign_types.begin(), campaign_types.end()};
  return names;
}

void validate_campaign(const campaign_fields& fields, bool creating, field_errors& errors) {
  check_name(fields, creating, errors);
  check_choice("type", fields.type, campaign_types, errors);
  check_ids(fields, errors);
  check_choice("dialer_type", fields.dialer_type, dialer_types, errors);
  check_choice("provider_a_calling_entity", fields.provider_a_calling_entity, calling_entities,
               errors);
  check_dates(fields, errors);
  check_schedule(fields, errors);
  check_attempts(fields, errors);
  check_webhook(fields, errors);
}

bool is_calendar_date(std::string_view text) noexcept {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-')
    return false;
  const int year = digits_value(text.substr(0, 4));
  const int month = digits_value(text.substr(5, 2));
  const int day = digits_value(text.substr(8, 2));
  if (year < 1900 || month < 0 || day < 0) // four digits already cap the year at 9999
    return false;
  const date::year_month_day ymd{date::year{year}, date::month{static_cast<unsigned>(month)},
                                 date::day{static_cast<unsigned>(day)}};
  return ymd.ok();
}

bool is_clock_time(std::string_view text) noexcept {
  if (text.size() != 5 || text[2] != ':')
    return false;
  const int hours = digits_value(text.substr(0, 2));
  const int minutes = digits_value(text.substr(3, 2));
  return hours >= 0 && hours <= 23 && minutes >= 0 && minutes <= 59;
}

bool is_iana_zone(std::string_view name) noexcept {
  // Names come from requests: refuse path tricks before any lookup.
  // "localtime" is a symlink to the host's own zone in /usr/share/zoneinfo,
  // not an IANA name, and its meaning would depend on the machine.
  if (name.empty() || name.front() == '/' || name.find("..") != std::string_view::npos ||
      name == "localtime")
    return false;
  try {
    return date::locate_zone(name) != nullptr; // throws for unknown names
  } catch (...) {
    return false;
  }
}

} // namespace vcs::domain
