#include "domain/call_state.hpp"

#include "domain/dial_policy.hpp"
#include "domain/trim.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace vcs::domain {
namespace {

constexpr std::array<std::string_view, 5> status_names{"IDLE", "QUEUED", "IN_PROGRESS", "COMPLETED",
                                                       "FAILED"};
constexpr std::array<std::string_view, 6> outcome_names{"human", "voicemail", "no_answer",
                                                        "busy",  "failed",    "invalid_number"};

// A call row's status (migration 0004): a lead's, or ABANDONED when the
// provider refused it or the node placing it stopped.
constexpr std::array<std::string_view, 5> call_row_status_names{"QUEUED", "IN_PROGRESS",
                                                                "COMPLETED", "FAILED", "ABANDONED"};

constexpr const char* not_in_service = "Number not in service";

template <class Enum, std::size_t N>
std::optional<Enum> parse_name(const std::array<std::string_view, N>& names,
                               std::string_view text) noexcept {
  const auto it = std::find(names.begin(), names.end(), text);
  if (it == names.end())
    return std::nullopt;
  return static_cast<Enum>(it - names.begin());
}

bool in_flight(call_status s) noexcept {
  return s == call_status::queued || s == call_status::in_progress;
}

lead_call_state answered_by(lead_call_state s, std::string_view answer_type, timestamp now) {
  s.status = call_status::completed;
  s.answered = true;
  s.answer_type = answer_type;
  s.answered_at = now;
  s.next_attempt_after.reset();
  s.call_error_reason.reset();
  return s;
}

} // namespace

const std::array<call_status, 5>& call_statuses() noexcept {
  static constexpr std::array<call_status, 5> all{call_status::idle, call_status::queued,
                                                  call_status::in_progress, call_status::completed,
                                                  call_status::failed};
  return all;
}

const std::vector<std::string>& call_outcome_names() {
  static const std::vector<std::string> names{outcome_names.begin(), outcome_names.end()};
  return names;
}

const std::vector<std::string>& call_row_statuses() {
  static const std::vector<std::string> names{call_row_status_names.begin(),
                                              call_row_status_names.end()};
  return names;
}

std::string_view to_string(call_status s) noexcept {
  return status_names[static_cast<std::size_t>(s)];
}

std::optional<call_status> parse_call_status(std::string_view text) noexcept {
  return parse_name<call_status>(status_names, text);
}

std::string_view to_string(call_outcome o) noexcept {
  return outcome_names[static_cast<std::size_t>(o)];
}

std::optional<call_outcome> parse_call_outcome(std::string_view text) noexcept {
  return parse_name<call_outcome>(outcome_names, text);
}

dial_refusal can_dial(const lead_call_state& s, const dial_policy& p, timestamp now) {
  if (s.do_not_call)
    return dial_refusal::do_not_call;
  if (s.invalid)
    return dial_refusal::invalid;
  if (s.answered || s.status == call_status::completed)
    return dial_refusal::answered;
  if (in_flight(s.status))
    return dial_refusal::in_flight;
  if (s.attempts_made >= p.max_call_attempts || s.status == call_status::failed)
    return dial_refusal::attempts_exhausted;
  if (s.daily_attempts >= p.max_daily_attempts && s.daily_attempts_day == local_day(p.zone, now))
    return dial_refusal::daily_cap;
  if (s.next_attempt_after && *s.next_attempt_after > now)
    return dial_refusal::too_soon;
  return dial_refusal::none;
}

lead_call_state start_attempt(lead_call_state s, const dial_policy& p, timestamp now) {
  std::string today = local_day(p.zone, now);
  if (s.daily_attempts_day == today) {
    ++s.daily_attempts;
  } else {
    s.daily_attempts = 1;
    s.daily_attempts_day = std::move(today);
  }
  s.status = call_status::queued;
  ++s.attempts_made;
  s.next_attempt_after.reset();
  s.call_error_reason.reset();
  return s;
}

lead_call_state call_ringing(lead_call_state s) {
  if (s.status == call_status::queued)
    s.status = call_status::in_progress;
  return s;
}

lead_call_state finish_attempt(lead_call_state s, call_outcome outcome, const dial_policy& p,
                               timestamp now) {
  if (!in_flight(s.status))
    return s;
  if (outcome == call_outcome::human ||
      (outcome == call_outcome::voicemail && p.voicemail_is_answer))
    return answered_by(std::move(s), to_string(outcome), now);
  s.call_error_reason = std::string{to_string(outcome)};
  if (outcome == call_outcome::invalid_number) {
    s.status = call_status::failed;
    s.invalid = true;
    s.invalid_reason = not_in_service;
    s.next_attempt_after.reset();
  } else if (s.attempts_made >= p.max_call_attempts) {
    s.status = call_status::failed;
    s.next_attempt_after.reset();
  } else {
    s.status = call_status::idle;
    s.next_attempt_after = now + p.min_gap;
  }
  return s;
}

lead_call_state abandon_attempt(lead_call_state s, const dial_policy&, timestamp now,
                                std::string reason) {
  if (s.status != call_status::queued)
    return s;
  s.status = call_status::idle;
  s.attempts_made = std::max(0, s.attempts_made - 1);
  s.daily_attempts = std::max(0, s.daily_attempts - 1);
  s.next_attempt_after = now + abandon_retry_delay;
  s.call_error_reason = std::move(reason);
  return s;
}

bool is_answered(const lead_call_state& s) noexcept {
  return s.answered || s.status == call_status::completed;
}

lead_call_state mark_unanswered(lead_call_state s) {
  if (!is_answered(s))
    return s;
  s.status = call_status::idle;
  s.answered = false;
  s.answer_type.clear();
  s.answered_at.reset();
  s.next_attempt_after.reset();
  s.call_error_reason.reset();
  s.attempts_made = 0;
  s.daily_attempts = 0;
  s.daily_attempts_day.reset();
  return s;
}

int64_t billable_hundredths(std::chrono::seconds duration) noexcept {
  const int64_t s = duration.count();
  if (s <= 0)
    return 0;
  // Whole minutes first, so no multiplication can overflow.
  return s / 60 * 100 + ((s % 60) * 100 + 59) / 60;
}

std::optional<call_outcome> scripted_outcome(std::string_view list, int32_t attempt) noexcept {
  if (attempt < 1 || trim_spaces(list).empty())
    return std::nullopt;
  std::optional<call_outcome> chosen;
  int32_t index = 0;
  for (std::size_t start = 0;; ++index) {
    const std::size_t comma = list.find(',', start);
    const auto outcome = parse_call_outcome(trim_spaces(list.substr(start, comma - start)));
    if (!outcome)
      return std::nullopt;
    // Every name is checked, so a typo later in the list is not hidden.
    if (index < attempt)
      chosen = outcome;
    if (comma == std::string_view::npos)
      return chosen;
    start = comma + 1;
  }
}

} // namespace vcs::domain
