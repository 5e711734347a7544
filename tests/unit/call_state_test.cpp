#include "domain/call_state.hpp"
#include "domain/dial_policy.hpp"

#include <gtest/gtest.h>

namespace vcs::domain {
namespace {

using namespace std::chrono_literals;

timestamp at(const char* iso) {
  return *parse_iso8601(iso);
}

// UTC+14: from 10:00Z on, the local day is the next UTC day.
dial_policy kiritimati_policy() {
  dial_policy p;
  p.zone = date::locate_zone("Pacific/Kiritimati");
  p.max_call_attempts = 3;
  p.max_daily_attempts = 2;
  p.min_gap = 30min;
  return p;
}

TEST(call_state, status_and_outcome_names_round_trip) {
  for (const auto s : {call_status::idle, call_status::queued, call_status::in_progress,
                       call_status::completed, call_status::failed})
    EXPECT_EQ(parse_call_status(to_string(s)), s);
  EXPECT_EQ(to_string(call_status::in_progress), "IN_PROGRESS");
  EXPECT_EQ(parse_call_status("idle"), std::nullopt);
  EXPECT_EQ(parse_call_status(""), std::nullopt);

  for (const auto o : {call_outcome::human, call_outcome::voicemail, call_outcome::no_answer,
                       call_outcome::busy, call_outcome::failed, call_outcome::invalid_number})
    EXPECT_EQ(parse_call_outcome(to_string(o)), o);
  EXPECT_EQ(to_string(call_outcome::no_answer), "no_answer");
  EXPECT_EQ(parse_call_outcome("HUMAN"), std::nullopt);
}

TEST(call_state, can_dial_checks_refusals_in_order) {
  const auto p = kiritimati_policy();
  const auto now = at("2026-03-10T05:00:00Z");
  EXPECT_EQ(can_dial(lead_call_state{}, p, now), dial_refusal::none);

  // Every refusal at once; removing the reported one reveals the next.
  lead_call_state s;
  s.do_not_call = true;
  s.invalid = true;
  s.answered = true;
  s.status = call_status::queued;
  s.attempts_made = 3;
  s.daily_attempts = 2;
  s.daily_attempts_day = "2026-03-10";
  s.next_attempt_after = now + 1min;
  EXPECT_EQ(can_dial(s, p, now), dial_refusal::do_not_call);
  s.do_not_call = false;
  EXPECT_EQ(can_dial(s, p, now), dial_refusal::invalid);
  s.invalid = false;
  EXPECT_EQ(can_dial(s, p, now), dial_refusal::answered);
  s.answered = false;
  EXPECT_EQ(can_dial(s, p, now), dial_refusal::in_flight);
  s.status = call_status::in_progress;
  EXPECT_EQ(can_dial(s, p, now), dial_refusal::in_flight);
  s.status = call_status::idle;
  EXPECT_EQ(can_dial(s, p, now), dial_refusal::attempts_exhausted);
  s.attempts_made = 2;
  EXPECT_EQ(can_dial(s, p, now), dial_refusal::daily_cap);
  s.daily_attempts = 1;
  EXPECT_EQ(can_dial(s, p, now), dial_refusal::too_soon);
  s.next_attempt_after = now;
  EXPECT_EQ(can_dial(s, p, now), dial_refusal::none);
}

TEST(call_state, completed_and_failed_statuses_refuse_without_their_flags) {
  const auto p = kiritimati_policy();
  const auto now = at("2026-03-10T05:00:00Z");
  lead_call_state s;
  s.status = call_status::completed;
  EXPECT_EQ(can_dial(s, p, now), dial_refusal::answered);
  s.status = call_status::failed;
  EXPECT_EQ(can_dial(s, p, now), dial_refusal::attempts_exhausted);
}

TEST(call_state, start_attempt_queues_and_counts) {
  const auto p = kiritimati_policy();
  lead_call_state s;
  s.next_attempt_after = at("2026-03-10T04:00:00Z");
  s.call_error_reason = "busy";
  // 05:00Z is 19:00 on 2026-03-10 in Kiritimati.
  s = start_attempt(s, p, at("2026-03-10T05:00:00Z"));
  EXPECT_EQ(s.status, call_status::queued);
  EXPECT_EQ(s.attempts_made, 1);
  EXPECT_EQ(s.daily_attempts, 1);
  EXPECT_EQ(s.daily_attempts_day, "2026-03-10");
  EXPECT_EQ(s.next_attempt_after, std::nullopt);
  EXPECT_EQ(s.call_error_reason, std::nullopt);
  EXPECT_EQ(can_dial(s, p, at("2026-03-10T05:00:00Z")), dial_refusal::in_flight);
}

TEST(call_state, call_ringing_moves_only_a_queued_call) {
  lead_call_state s;
  s.status = call_status::queued;
  EXPECT_EQ(call_ringing(s).status, call_status::in_progress);
  for (const auto other :
       {call_status::idle, call_status::in_progress, call_status::completed, call_status::failed}) {
    s.status = other;
    EXPECT_EQ(call_ringing(s).status, other);
  }
}

TEST(call_state, human_answer_completes) {
  const auto p = kiritimati_policy();
  const auto now = at("2026-03-10T05:03:00Z");
  auto s = call_ringing(start_attempt({}, p, at("2026-03-10T05:00:00Z")));
  s.call_error_reason = "stale";
  s = finish_attempt(s, call_outcome::human, p, now);
  EXPECT_EQ(s.status, call_status::completed);
  EXPECT_TRUE(s.answered);
  EXPECT_EQ(s.answer_type, "human");
  EXPECT_EQ(s.answered_at, now);
  EXPECT_EQ(s.next_attempt_after, std::nullopt);
  EXPECT_EQ(s.call_error_reason, std::nullopt);
  EXPECT_EQ(s.attempts_made, 1);
  EXPECT_EQ(can_dial(s, p, now + 24h), dial_refusal::answered);
}

TEST(call_state, an_answer_may_arrive_before_the_ringing_event) {
  const auto p = kiritimati_policy();
  const auto s = finish_attempt(start_attempt({}, p, at("2026-03-10T05:00:00Z")),
                                call_outcome::human, p, at("2026-03-10T05:01:00Z"));
  EXPECT_EQ(s.status, call_status::completed);
}

TEST(call_state, voicemail_completes_only_when_counted_as_answer) {
  auto p = kiritimati_policy();
  const auto now = at("2026-03-10T05:03:00Z");
  const auto ringing = call_ringing(start_attempt({}, p, at("2026-03-10T05:00:00Z")));

  p.voicemail_is_answer = true;
  const auto counted = finish_attempt(ringing, call_outcome::voicemail, p, now);
  EXPECT_EQ(counted.status, call_status::completed);
  EXPECT_TRUE(counted.answered);
  EXPECT_EQ(counted.answer_type, "voicemail");
  EXPECT_EQ(counted.answered_at, now);

  p.voicemail_is_answer = false;
  const auto retried = finish_attempt(ringing, call_outcome::voicemail, p, now);
  EXPECT_EQ(retried.status, call_status::idle);
  EXPECT_FALSE(retried.answered);
  EXPECT_EQ(retried.answer_type, "");
  EXPECT_EQ(retried.answered_at, std::nullopt);
  EXPECT_EQ(retried.call_error_reason, "voicemail");
  EXPECT_EQ(retried.next_attempt_after, now + 30min);
}

TEST(call_state, invalid_number_fails_for_good) {
  const auto p = kiritimati_policy();
  const auto now = at("2026-03-10T05:01:00Z");
  const auto s = finish_attempt(start_attempt({}, p, at("2026-03-10T05:00:00Z")),
                                call_outcome::invalid_number, p, now);
  EXPECT_EQ(s.status, call_status::failed);
  EXPECT_TRUE(s.invalid);
  EXPECT_EQ(s.invalid_reason, "Number not in service");
  EXPECT_EQ(s.call_error_reason, "invalid_number");
  EXPECT_EQ(s.next_attempt_after, std::nullopt);
  EXPECT_FALSE(s.answered);
  EXPECT_EQ(can_dial(s, p, now + 24h), dial_refusal::invalid);
}

TEST(call_state, unanswered_call_waits_min_gap_before_retry) {
  const auto p = kiritimati_policy();
  const auto now = at("2026-03-10T05:02:00Z");
  for (const auto outcome : {call_outcome::no_answer, call_outcome::busy, call_outcome::failed}) {
    const auto s = finish_attempt(call_ringing(start_attempt({}, p, at("2026-03-10T05:00:00Z"))),
                                  outcome, p, now);
    EXPECT_EQ(s.status, call_status::idle) << to_string(outcome);
    EXPECT_EQ(s.call_error_reason, to_string(outcome));
    EXPECT_EQ(s.next_attempt_after, now + 30min);
    EXPECT_EQ(can_dial(s, p, now + 29min), dial_refusal::too_soon);
    EXPECT_EQ(can_dial(s, p, now + 30min), dial_refusal::none);
  }
}

TEST(call_state, last_allowed_attempt_without_answer_fails) {
  auto p = kiritimati_policy();
  p.max_daily_attempts = 3;
  auto now = at("2026-03-10T01:00:00Z");
  lead_call_state s;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    ASSERT_EQ(can_dial(s, p, now), dial_refusal::none) << attempt;
    s = finish_attempt(start_attempt(s, p, now), call_outcome::busy, p, now + 1min);
    now += 1h;
  }
  EXPECT_EQ(s.attempts_made, 3);
  EXPECT_EQ(s.status, call_status::failed);
  EXPECT_EQ(s.next_attempt_after, std::nullopt);
  EXPECT_EQ(s.call_error_reason, "busy");
  EXPECT_EQ(can_dial(s, p, now), dial_refusal::attempts_exhausted);
}

TEST(call_state, daily_cap_resets_on_the_next_local_day) {
  auto p = kiritimati_policy();
  p.max_call_attempts = 5;
  p.min_gap = 3min;
  lead_call_state s;
  // 08:00Z and 08:10Z are 22:00 and 22:10 on 2026-03-10 in Kiritimati.
  s = finish_attempt(start_attempt(s, p, at("2026-03-10T08:00:00Z")), call_outcome::no_answer, p,
                     at("2026-03-10T08:01:00Z"));
  s = finish_attempt(start_attempt(s, p, at("2026-03-10T08:10:00Z")), call_outcome::no_answer, p,
                     at("2026-03-10T08:11:00Z"));
  EXPECT_EQ(s.daily_attempts, 2);
  EXPECT_EQ(s.daily_attempts_day, "2026-03-10");
  EXPECT_EQ(can_dial(s, p, at("2026-03-10T09:59:59Z")), dial_refusal::daily_cap);
  // 10:00Z is still 2026-03-10 in UTC but midnight of 2026-03-11 locally.
  const auto next_day = at("2026-03-10T10:00:00Z");
  EXPECT_EQ(can_dial(s, p, next_day), dial_refusal::none);
  s = start_attempt(s, p, next_day);
  EXPECT_EQ(s.daily_attempts, 1);
  EXPECT_EQ(s.daily_attempts_day, "2026-03-11");
  EXPECT_EQ(s.attempts_made, 3);
}

TEST(call_state, abandon_gives_the_attempt_back) {
  const auto p = kiritimati_policy();
  const auto now = at("2026-03-10T05:00:10Z");
  lead_call_state s;
  s.call_error_reason = "busy";
  s = start_attempt(s, p, at("2026-03-10T05:00:00Z"));
  s = abandon_attempt(s, p, now, "provider rate limit");
  EXPECT_EQ(s.status, call_status::idle);
  EXPECT_EQ(s.attempts_made, 0);
  EXPECT_EQ(s.daily_attempts, 0);
  EXPECT_EQ(s.next_attempt_after, now + 1min);
  EXPECT_EQ(s.call_error_reason, "provider rate limit");
  EXPECT_EQ(can_dial(s, p, now + 59s), dial_refusal::too_soon);
  EXPECT_EQ(can_dial(s, p, now + 1min), dial_refusal::none);
}

TEST(call_state, abandon_never_goes_below_zero_and_needs_a_queued_call) {
  const auto p = kiritimati_policy();
  const auto now = at("2026-03-10T05:00:00Z");
  lead_call_state queued;
  queued.status = call_status::queued; // counters already zero (e.g. reset meanwhile)
  const auto s = abandon_attempt(queued, p, now, "refused");
  EXPECT_EQ(s.status, call_status::idle);
  EXPECT_EQ(s.attempts_made, 0);
  EXPECT_EQ(s.daily_attempts, 0);

  // Once the call rang the attempt counts: abandon changes nothing.
  const auto ringing = call_ringing(start_attempt({}, p, now));
  const auto kept = abandon_attempt(ringing, p, now, "refused");
  EXPECT_EQ(kept.status, call_status::in_progress);
  EXPECT_EQ(kept.attempts_made, 1);
  EXPECT_EQ(kept.call_error_reason, std::nullopt);
}

TEST(call_state, finish_of_a_call_not_in_flight_changes_nothing) {
  const auto p = kiritimati_policy();
  const auto now = at("2026-03-10T05:00:00Z");
  const auto answered = finish_attempt(start_attempt({}, p, now), call_outcome::human, p, now);
  // A late or duplicated report must not undo the answer.
  const auto again = finish_attempt(answered, call_outcome::no_answer, p, now + 1min);
  EXPECT_EQ(again.status, call_status::completed);
  EXPECT_TRUE(again.answered);
  EXPECT_EQ(again.answered_at, now);
  EXPECT_EQ(again.call_error_reason, std::nullopt);

  const auto idle = finish_attempt(lead_call_state{}, call_outcome::human, p, now);
  EXPECT_EQ(idle.status, call_status::idle);
  EXPECT_FALSE(idle.answered);
}

TEST(call_state, mark_unanswered_starts_a_new_round) {
  auto p = kiritimati_policy();
  p.max_daily_attempts = 3;
  auto now = at("2026-03-10T01:00:00Z");
  lead_call_state s;
  s = finish_attempt(start_attempt(s, p, now), call_outcome::busy, p, now + 1min);
  now += 1h;
  s = finish_attempt(start_attempt(s, p, now), call_outcome::human, p, now + 1min);
  ASSERT_EQ(s.status, call_status::completed);

  s = mark_unanswered(s);
  EXPECT_EQ(s.status, call_status::idle);
  EXPECT_FALSE(s.answered);
  EXPECT_EQ(s.answer_type, "");
  EXPECT_EQ(s.answered_at, std::nullopt);
  EXPECT_EQ(s.next_attempt_after, std::nullopt);
  EXPECT_EQ(s.call_error_reason, std::nullopt);
  EXPECT_EQ(s.attempts_made, 0);
  EXPECT_EQ(s.daily_attempts, 0);
  EXPECT_EQ(s.daily_attempts_day, std::nullopt);
  EXPECT_EQ(can_dial(s, p, now + 2min), dial_refusal::none);
}

TEST(call_state, mark_unanswered_leaves_unanswered_leads_alone) {
  lead_call_state s;
  s.status = call_status::idle;
  s.attempts_made = 2;
  s.call_error_reason = "busy";
  const auto same = mark_unanswered(s);
  EXPECT_EQ(same.attempts_made, 2);
  EXPECT_EQ(same.call_error_reason, "busy");

  s.status = call_status::failed;
  EXPECT_EQ(mark_unanswered(s).status, call_status::failed);

  // Answered but stored with another status still counts as answered.
  s.status = call_status::idle;
  s.answered = true;
  s.answer_type = "human";
  const auto reset = mark_unanswered(s);
  EXPECT_FALSE(reset.answered);
  EXPECT_EQ(reset.attempts_made, 0);
}

TEST(call_state, billable_hundredths_round_up) {
  EXPECT_EQ(billable_hundredths(0s), 0);
  EXPECT_EQ(billable_hundredths(1s), 2);
  EXPECT_EQ(billable_hundredths(3s), 5);
  EXPECT_EQ(billable_hundredths(6s), 10);
  EXPECT_EQ(billable_hundredths(59s), 99);
  EXPECT_EQ(billable_hundredths(60s), 100);
  EXPECT_EQ(billable_hundredths(61s), 102);
  EXPECT_EQ(billable_hundredths(90s), 150);
  EXPECT_EQ(billable_hundredths(3600s), 6000);
  EXPECT_EQ(billable_hundredths(-5s), 0);
}

TEST(call_state, scripted_outcome_follows_the_list_then_repeats_the_last) {
  constexpr std::string_view list = "busy,no_answer,human";
  EXPECT_EQ(scripted_outcome(list, 1), call_outcome::busy);
  EXPECT_EQ(scripted_outcome(list, 2), call_outcome::no_answer);
  EXPECT_EQ(scripted_outcome(list, 3), call_outcome::human);
  EXPECT_EQ(scripted_outcome(list, 4), call_outcome::human);
  EXPECT_EQ(scripted_outcome(list, 100), call_outcome::human);
  EXPECT_EQ(scripted_outcome("invalid_number", 1), call_outcome::invalid_number);
  EXPECT_EQ(scripted_outcome(" voicemail , busy", 2), call_outcome::busy);
}

TEST(call_state, scripted_outcome_refuses_bad_lists) {
  EXPECT_EQ(scripted_outcome("", 1), std::nullopt);
  EXPECT_EQ(scripted_outcome("  ", 1), std::nullopt);
  EXPECT_EQ(scripted_outcome("busy,hooman", 1), std::nullopt); // a later typo is caught too
  EXPECT_EQ(scripted_outcome("busy,,human", 1), std::nullopt);
  EXPECT_EQ(scripted_outcome("busy,", 1), std::nullopt);
  EXPECT_EQ(scripted_outcome("BUSY", 1), std::nullopt);
  EXPECT_EQ(scripted_outcome("busy", 0), std::nullopt);
}

} // namespace
} // namespace vcs::domain
