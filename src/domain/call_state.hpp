#pragma once

#include "domain/timestamp.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The dialing state machine of one lead, in one place (the dialer actors
// and the lead routes only store and load its fields):
//
//   IDLE --start_attempt--> QUEUED --call_ringing--> IN_PROGRESS
//   QUEUED --abandon_attempt--> IDLE      placing the call failed before it
//                                         rang; the attempt is given back
//   QUEUED | IN_PROGRESS --finish_attempt--> COMPLETED  answered
//                                        --> FAILED     invalid number, or
//                                                       attempts used up
//                                        --> IDLE       retry after min_gap
//   COMPLETED --mark_unanswered--> IDLE   re-queued for a new round
//
// A transition applied to a state it does not start from returns the state
// unchanged, so a duplicated or late provider event cannot undo a result.
// start_attempt does not check whether the lead may be dialed: ask
// can_dial_at (domain/dial_policy.hpp) first.

namespace vcs::domain {

struct dial_policy; // domain/dial_policy.hpp

enum class call_status : uint8_t { idle, queued, in_progress, completed, failed };

// "IDLE", "QUEUED", "IN_PROGRESS", "COMPLETED", "FAILED" (exact, upper case).
std::string_view to_string(call_status s) noexcept;
// The five statuses in the order above.
const std::array<call_status, 5>& call_statuses() noexcept;
std::optional<call_status> parse_call_status(std::string_view text) noexcept;

enum class call_outcome : uint8_t { human, voicemail, no_answer, busy, failed, invalid_number };

// "human", "voicemail", "no_answer", "busy", "failed", "invalid_number".
std::string_view to_string(call_outcome o) noexcept;
std::optional<call_outcome> parse_call_outcome(std::string_view text) noexcept;
// The six outcome names in the order above (for `valid_values`).
const std::vector<std::string>& call_outcome_names();
// The statuses of a call (not a lead): QUEUED, IN_PROGRESS, COMPLETED,
// FAILED, ABANDONED.
const std::vector<std::string>& call_row_statuses();

// The dialing fields of one lead as stored.
struct lead_call_state {
  call_status status = call_status::idle;
  bool answered = false;
  std::string answer_type; // "" while unanswered, else "human" or "voicemail"
  int32_t attempts_made = 0;
  int32_t daily_attempts = 0;                    // attempts made on daily_attempts_day
  std::optional<std::string> daily_attempts_day; // "YYYY-MM-DD", local day in the policy's zone
  std::optional<timestamp> next_attempt_after;
  std::optional<timestamp> answered_at;
  std::optional<std::string> call_error_reason;
  bool do_not_call = false;
  bool invalid = false;
  std::optional<std::string> invalid_reason;
};

// Why a lead may not be dialed now; `none` when it may.
enum class dial_refusal : uint8_t {
  none,
  do_not_call,
  invalid,
  answered,           // answered, or status COMPLETED
  in_flight,          // QUEUED or IN_PROGRESS
  attempts_exhausted, // attempts_made >= max_call_attempts, or status FAILED
  daily_cap,          // max_daily_attempts already made today (policy zone's local day)
  too_soon,           // next_attempt_after is still ahead
  outside_window,     // only from can_dial_at: campaign phase or calling hours
};

// The lead's own refusals, checked in the enum's order; the campaign's
// schedule is not looked at (can_dial_at adds it).
dial_refusal can_dial(const lead_call_state& s, const dial_policy& p, timestamp now);

// QUEUED; attempts_made + 1; daily_attempts + 1, or 1 with today's local day
// when the stored day is another; next_attempt_after and call_error_reason
// cleared. Applies from any state (see can_dial_at).
lead_call_state start_attempt(lead_call_state s, const dial_policy& p, timestamp now);

// QUEUED -> IN_PROGRESS.
lead_call_state call_ringing(lead_call_state s);

// QUEUED | IN_PROGRESS -> the outcome's state:
// - human, or voicemail when p.voicemail_is_answer: COMPLETED, answered,
//   answer_type "human"/"voicemail", answered_at now;
// - invalid_number: FAILED, invalid with reason "Number not in service",
//   call_error_reason "invalid_number";
// - otherwise call_error_reason = to_string(outcome), and FAILED when
//   attempts_made >= p.max_call_attempts, else IDLE with
//   next_attempt_after = now + p.min_gap.
lead_call_state finish_attempt(lead_call_state s, call_outcome outcome, const dial_policy& p,
                               timestamp now);

// How long a lead waits after the provider refused a call before it rang.
inline constexpr std::chrono::minutes abandon_retry_delay{1};

// QUEUED -> IDLE when the provider refused the call before it rang: the
// attempt is given back (attempts_made and daily_attempts - 1, not below
// 0), next_attempt_after = now + abandon_retry_delay,
// call_error_reason = reason. (`p` is not needed yet; every transition
// takes the policy so callers need not know which ones read it.)
lead_call_state abandon_attempt(lead_call_state s, const dial_policy& p, timestamp now,
                                std::string reason);

// Whether mark_unanswered applies: the lead is answered, or COMPLETED.
bool is_answered(const lead_call_state& s) noexcept;

// An answered (or COMPLETED) lead back to IDLE with its answer, error,
// retry time and attempt counters cleared: a re-queue starts a new round.
// Any other lead is returned as it is.
lead_call_state mark_unanswered(lead_call_state s);

// Call minutes in hundredths of a minute, rounded up (61 s -> 102);
// 0 for a negative duration.
int64_t billable_hundredths(std::chrono::seconds duration) noexcept;

// The simulated provider's outcome of attempt `attempt` (1-based) from a
// comma-separated list of outcome names ("busy,no_answer,human"; spaces
// around names allowed): element attempt-1, or the last one past the end.
// nullopt when the list is empty, any name is unknown, or attempt < 1.
std::optional<call_outcome> scripted_outcome(std::string_view list, int32_t attempt) noexcept;

} // namespace vcs::domain
