#pragma once

#include "domain/calling_rules.hpp"
#include "domain/error.hpp"
#include "domain/tenant_contact_cap.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

enum class campaign_status : uint8_t { draft, scheduled, active, paused, ended };

// "DRAFT", "SCHEDULED", "ACTIVE", "PAUSED", "ENDED" (exact, upper case).
std::string_view to_string(campaign_status s) noexcept;
std::optional<campaign_status> parse_campaign_status(std::string_view text) noexcept;
// The five names in the order above (for `valid_statuses`).
const std::vector<std::string>& campaign_status_names();
// Why a PAUSED campaign is paused: by hand, by its client's billing, by its
// usage, by the failure breaker, or because its provider refused the
// configuration's credentials. A billing resume resumes only what billing
// paused.
enum class pause_reason : uint8_t {
  manual,
  billing,
  usage_exhausted,
  failure_breaker,
  provider_credentials
};

// "manual", "billing", "usage_exhausted", "failure_breaker",
// "provider_credentials".
std::string_view to_string(pause_reason r) noexcept;
std::optional<pause_reason> parse_pause_reason(std::string_view text) noexcept;

// What changed a campaign's status (its event's changed_by): the status
// route, its start or end date, its client's payment or minutes, its
// failure breaker, or its provider refusing the credentials.
enum class status_cause : uint8_t {
  manual,
  schedule,
  billing,
  usage,
  failure_breaker,
  provider_credentials
};

// "manual", "schedule", "billing", "usage", "failure_breaker",
// "provider_credentials".
std::string_view to_string(status_cause c) noexcept;
// The cause of a pause for `r`.
status_cause cause_of(pause_reason r) noexcept;

// "OUTBOUND", "INBOUND": the campaign types (for `valid_values`).
const std::vector<std::string>& campaign_type_names();

// Bounds of the numeric campaign fields (docs/decisions/campaigns.md#campaigns).
inline constexpr int32_t max_call_attempts_limit = 100;      // 1..100 in total
inline constexpr int32_t max_daily_attempts_limit = 24;      // 1..24 per day
inline constexpr int32_t min_gap_minutes_floor = 3;          // minutes
inline constexpr int32_t min_gap_minutes_ceiling = 43'200;   // 30 days
inline constexpr int32_t failure_breaker_calls_limit = 1000; // 0 (off)..1000 calls
inline constexpr std::size_t name_max_length = 255;
inline constexpr std::size_t id_field_max_length = 255;
inline constexpr std::size_t webhook_url_max_length = 2048;

// The campaign fields of the spec's create/update body, already type-checked
// by the HTTP layer; every member is optional (absent = not given). Ids are
// the provider-native strings as given; `voice_provider_id` is the decoded
// database id of tenant_voice_provider_id.
struct campaign_fields {
  std::optional<std::string> name;
  std::optional<std::string> type;
  std::optional<std::string> assistant_id;
  std::optional<int64_t> voice_provider_id;
  std::optional<std::string> dialer_type;
  std::optional<std::string> provider_a_calling_entity;
  std::optional<std::string> phone_number_id;
  std::optional<std::string> phone_number_pool_id;
  std::optional<std::string> start_date;
  std::optional<std::string> end_date;
  std::optional<std::string> timezone;
  std::optional<std::vector<std::string>> days_of_week;
  std::optional<std::string> daily_start_time;
  std::optional<std::string> daily_end_time;
  std::optional<int32_t> max_call_attempts;
  std::optional<int32_t> max_daily_attempts;
  std::optional<int32_t> min_gap_between_attempts;
  std::optional<bool> consider_voicemail_as_answered;
  std::optional<std::string> webhook_url;
  // Beyond the spec: apply the daily window in each lead's own time zone(s).
  std::optional<bool> lead_local_time;
  // Beyond the spec: what the calls are, for the calling rules (NONE,
  // TELEMARKETING, INFORMATIONAL); null on a campaign: the tenant's default.
  std::optional<std::string> calling_purpose;
  // Beyond the spec: the failure breaker (domain/failure_breaker.hpp).
  std::optional<int32_t> failure_breaker_calls;
  std::optional<int32_t> failure_breaker_percent;
};

// Semantic validation of the given fields; every problem is added to
// `errors` under the field's spec name (e.g. "timezone", "days_of_week",
// "end_date"). Rules:
// - name: required when `creating`; not blank; at most name_max_length.
// - type: OUTBOUND or INBOUND.
// - dialer_type: SINGLE or POOL.
// - provider_a_calling_entity: ASSISTANT, WORKFLOW or SQUAD.
// - assistant_id, phone_number_id: not blank, at most id_field_max_length.
// - phone_number_pool_id: a global id of a phone number pool.
// - start_date, end_date: real calendar dates "YYYY-MM-DD"; end_date not
//   before start_date (checked when both are given).
// - timezone: an IANA zone name known to the tz database.
// - days_of_week: non-empty; each one of MONDAY..SUNDAY (upper case); no
//   duplicates.
// - daily_start_time, daily_end_time: "HH:MM" 24-hour; when both are given
//   the start is before the end.
// - max_call_attempts 1..max_call_attempts_limit; max_daily_attempts
//   1..max_daily_attempts_limit and not above max_call_attempts when both
//   are given; min_gap_between_attempts in minutes
//   min_gap_minutes_floor..min_gap_minutes_ceiling.
// - calling_purpose: NONE, TELEMARKETING or INFORMATIONAL.
// - failure_breaker_calls 0..failure_breaker_calls_limit (0: off);
//   failure_breaker_percent 1..100.
// - webhook_url: an absolute http:// or https:// URL with a host, no spaces
//   or control characters, at most webhook_url_max_length.
void validate_campaign(const campaign_fields& fields, bool creating, field_errors& errors);

// True for a real calendar date "YYYY-MM-DD".
bool is_calendar_date(std::string_view text) noexcept;
// True for "HH:MM" with 00 <= HH <= 23, 00 <= MM <= 59.
bool is_clock_time(std::string_view text) noexcept;
// A free-text field: not blank and at most `max_length` characters, else a
// problem under `field`. True when neither applies.
bool check_text(const char* field, std::string_view value, std::size_t max_length,
                field_errors& errors);

// True for a zone name the tz database knows ("Europe/Berlin", "UTC").
bool is_iana_zone(std::string_view name) noexcept;

// A stored campaign.
struct campaign {
  int64_t id = 0;
  int64_t tenant_id = 0;
  std::string name;
  std::string type;
  campaign_status status = campaign_status::draft;
  // Set while PAUSED, and only then.
  std::optional<pause_reason> paused_for;
  std::optional<std::string> assistant_id;
  std::optional<int64_t> voice_provider_id;
  std::optional<std::string> dialer_type;
  std::optional<std::string> provider_a_calling_entity;
  std::optional<std::string> phone_number_id;
  std::optional<std::string> phone_number_pool_id;
  std::optional<std::string> start_date;
  std::optional<std::string> end_date;
  std::optional<std::string> timezone;
  std::optional<std::vector<std::string>> days_of_week;
  std::optional<std::string> daily_start_time;
  std::optional<std::string> daily_end_time;
  std::optional<int32_t> max_call_attempts;
  std::optional<int32_t> max_daily_attempts;
  std::optional<int32_t> min_gap_between_attempts;
  bool consider_voicemail_as_answered = false;
  std::optional<std::string> webhook_url;
  bool lead_local_time = false;
  // The purpose set on the campaign (null: the tenant's default), and the
  // one that applies.
  std::optional<calling_purpose> purpose_set;
  calling_purpose purpose = calling_purpose::none;
  // The tenant's contact cap, read with the campaign.
  std::optional<tenant_contact_cap> tenant_cap;
  // Null: the breaker's defaults.
  std::optional<int32_t> failure_breaker_calls;
  std::optional<int32_t> failure_breaker_percent;
  // The breaker counts only calls after this one (the call that last
  // tripped it), so a resumed campaign starts with an empty window.
  int64_t failure_breaker_after = 0;
  int64_t lead_count = 0;
  timestamp created_at{};
  timestamp updated_at{};
  // When a dialer looks at the campaign next (campaigns.next_dial_at); null
  // while nothing but a change can give it work.
  std::optional<timestamp> next_dial_at;
};

} // namespace vcs::domain
