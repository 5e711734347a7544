#pragma once

// Why a lead is or is not being called now, and when it may be next: the
// rules the dialer applies, said per lead. The dialer asks the same two
// functions: campaign_refusal for the campaign (actors/dialer_work.cpp,
// dial_pass) and can_dial_at for each lead (domain/dial_policy.hpp).

#include "domain/call_state.hpp"
#include "domain/campaign.hpp"
#include "domain/dial_policy.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

enum class dial_state : uint8_t {
  eligible,             // the next dial pass may call it
  in_call,              // a call is queued or in progress
  answered,             // answered (or COMPLETED): never called again
  do_not_call,          // marked, or on the tenant's do-not-call list
  invalid,              // not a callable number
  attempts_exhausted,   // max_call_attempts used (or FAILED)
  daily_cap_reached,    // max_daily_attempts used today (campaign zone)
  waiting_gap,          // its next attempt is not due yet
  outside_window,       // outside the calling days and hours
  outside_legal_hours,  // a calling rule forbids calling it now (lead_dial_view::rule)
  contact_cap_reached,  // a contact cap of the calling rules is full (lead_dial_view::rule)
  campaign_not_active,  // DRAFT, PAUSED, or SCHEDULED without a start date
  campaign_not_started, // before the start date
  campaign_ended,       // ENDED, or past the end date
  billing_blocked,      // the client's subscription is past due or blocked
  no_voice_provider,    // the campaign has no provider configuration
  no_phone_number,      // a POOL campaign whose pool is gone or has no number
  numbers_at_daily_cap, // every number of its pool reached its daily cap
  lines_busy,           // every line of its provider configuration is in use
};

std::string_view to_string(dial_state s) noexcept;

// The campaign's side of dialing at one instant.
struct campaign_dial_facts {
  campaign_status status = campaign_status::draft;
  bool has_start_date = false;
  bool has_voice_provider = false;
  // Read only for a campaign that could otherwise dial.
  bool billing_blocked = false;
  // A POOL campaign's numbers (dialer_type POOL); absent for SINGLE.
  struct pool_capacity {
    int64_t numbers = 0;          // 0 when the pool is gone or empty
    int64_t calls_per_day = 0;    // the numbers times their daily cap
    int64_t calls_left_today = 0; // below the numbers' daily caps
    timestamp next_day{};         // when the pool's day (and its caps) renews
  };
  std::optional<pool_capacity> pool;
};

// A SCHEDULED campaign whose start date has come becomes ACTIVE (unless a
// billing block holds it), whatever else keeps it from dialing then.
bool starts_now(const campaign_dial_facts& c, const dial_policy& p, timestamp now);

// What stops the whole campaign from dialing at `now`, in the order the
// dialer checks: the end date (ENDED), the status, a billing block, the
// start date, a SCHEDULED campaign without a start date, no provider
// configuration, a POOL campaign without numbers, unless each lead keeps
// its own hours the calling window, and a pool whose numbers all reached
// their daily cap. nullopt when it may dial (lines aside).
std::optional<dial_state> campaign_refusal(const campaign_dial_facts& c, const dial_policy& p,
                                           timestamp now);

// One lead's state and when it may be called next.
struct lead_dial_view {
  dial_state state = dial_state::eligible;
  // null when only a change can make it callable (answered, paused, …) or
  // it waits for a free line; `now` when eligible.
  std::optional<timestamp> next_dial_at;
  // outside_legal_hours, contact_cap_reached: the rule that holds it (one
  // of the policy's rules).
  const calling_rule* rule = nullptr;
};

// The lead's own lasting refusals first (in a call, answered, opted out,
// invalid, attempts used up), then the campaign's refusal (`facts`: for
// numbers at their daily cap, the lead waits for the pool's next day), then its
// waiting (daily cap, gap, calling hours, then the calling rules' hours and
// contact caps (lead.recent_calls): with the instant that ends it, when the
// campaign's hours and every rule allow the call, within the end date),
// then the lines (`free_lines` of its provider
// configuration). `listed`: the number is on the tenant's do-not-call list.
lead_dial_view lead_dial_state(const campaign_dial_facts& facts,
                               std::optional<dial_state> campaign_refused, int64_t free_lines,
                               const dial_policy& p, const lead_call_state& s,
                               const dial_target& lead, bool listed, timestamp now);

} // namespace vcs::domain
