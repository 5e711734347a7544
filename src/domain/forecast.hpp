#pragma once

// A campaign's forecast (GET /api/v2/voice-campaigns/{campaign_id}/forecast):
// how many leads it may call now, why the others wait or are done, how many
// calls an hour it can place, and when it may finish. The lead counts follow
// the rules of lead_dial_state (domain/dial_state.hpp) but come from
// counters and bounded reads (storage/forecast_repository.hpp), never from
// reading every lead.

#include "domain/dial_policy.hpp"
#include "domain/dial_state.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace vcs::domain {

// The leads of a campaign by the first rule that refuses them, as
// can_dial orders the lasting ones (the tenant's do-not-call list counts
// as the lead's own mark).
struct lead_tally {
  int64_t do_not_call = 0;
  int64_t invalid = 0;
  int64_t answered = 0; // answered, or COMPLETED
  int64_t in_call = 0;  // QUEUED or IN_PROGRESS
  int64_t failed = 0;   // FAILED
  // IDLE and none of the above, and the attempts they made.
  int64_t callable = 0;
  int64_t callable_attempts = 0;
  // Among the callable: max_call_attempts used (it was lowered), and their
  // attempts; else max_daily_attempts used today; else the gap still running.
  int64_t exhausted = 0;
  int64_t exhausted_attempts = 0;
  int64_t daily_capped = 0;
  int64_t in_gap = 0;
};

// The campaign's last ended calls that reached the provider (at most
// call_sample_size).
struct call_sample {
  int64_t calls = 0;
  double line_seconds = 0; // mean time a call held its line, from placing to end
  int64_t answered = 0;    // by a person, or by voicemail where that counts
};

inline constexpr int32_t call_sample_size = 200;
// Fewer ended calls than this measure nothing: the assumptions below apply.
inline constexpr int64_t min_measured_calls = 10;
inline constexpr double assumed_line_seconds = 60;
inline constexpr double assumed_answer_rate = 0.3;
// The estimate gives up after this many local days of calling.
inline constexpr int forecast_horizon_days = 366;

enum class forecast_outlook : uint8_t {
  finishing,         // estimated_finish_at is set
  nothing_to_dial,   // no lead is left to call
  campaign_ended,    // ENDED or past its end date
  no_voice_provider, // no provider configuration: no lines
  no_phone_number,   // a POOL campaign whose pool is gone or empty
  no_calling_window, // no calling day or an empty daily window
  past_end_date,     // the end date comes first: calls_left_at_end
  beyond_horizon,    // more than forecast_horizon_days of calling
};

std::string_view to_string(forecast_outlook o) noexcept;

struct forecast {
  int64_t total_leads = 0;
  int64_t eligible_now = 0;
  // Every dial state but eligible, in the enum's order, with its count.
  std::vector<std::pair<dial_state, int64_t>> skipped;
  // Leads that may still be called: eligible, waiting, or held by the
  // campaign (not started, paused, outside its hours, lines busy).
  int64_t open_leads = 0;
  int32_t concurrency = 0;
  double line_seconds = 0;
  bool line_seconds_measured = false;
  double answer_rate = 0;
  bool answer_rate_measured = false;
  double calls_per_hour = 0;
  // Calls still to place, if each open lead is called until answered or out
  // of attempts at the answer rate.
  int64_t expected_calls = 0;
  forecast_outlook outlook = forecast_outlook::nothing_to_dial;
  std::optional<timestamp> estimated_finish_at;
  int64_t calls_left_at_end = 0;
};

// The forecast at `now` of a campaign with `lines` lines on its provider
// configuration, `free_lines` of them free. The estimate assumes the
// campaign dials from now on (or from its start date), whatever its status:
// a DRAFT or a paused campaign is forecast as if started now. A POOL
// campaign places at most its pool's daily calls a day (`facts.pool`, the
// pool's days taken as the campaign's). The calling
// hours are the campaign's; with lead_local_time each lead's own hours are
// not read (that would read every lead), so its ready leads count as
// eligible.
forecast forecast_of(const lead_tally& leads, const call_sample& calls,
                     const campaign_dial_facts& facts, const dial_policy& p, int32_t lines,
                     int64_t free_lines, timestamp now);

} // namespace vcs::domain
