#pragma once

#include "domain/call_state.hpp"
#include "domain/callee.hpp"
#include "domain/calling_rules.hpp"
#include "domain/campaign.hpp"
#include "domain/contact_caps.hpp"
#include "domain/timestamp.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <date/tz.h>

// A campaign's dialing schedule. Every rule is applied on the local
// timeline of a tz-database zone (date::time_zone), so DST transitions are
// handled by the zone rules, never by fixed offsets.

namespace vcs::domain {

struct dial_policy {
  const date::time_zone* zone = nullptr;      // campaign timezone; UTC when null
  std::optional<date::local_days> start_date; // first local day of dialing
  std::optional<date::local_days> end_date;   // last local day of dialing (inclusive)
  uint8_t days_mask = 0x7f;                   // bit (1 << weekday.c_encoding()), Sunday = bit 0
  std::chrono::minutes daily_start{0};        // local time of day, inclusive
  std::chrono::minutes daily_end{24 * 60};    // local time of day, exclusive
  int32_t max_call_attempts = 3;
  int32_t max_daily_attempts = 3;
  std::chrono::minutes min_gap{60};
  bool voicemail_is_answer = false;
  bool lead_local_time = false; // apply the daily window in each lead's own zone(s)
  // The calling rules that narrow the window (domain/legal_hours.hpp):
  // those of `rules` governing `purpose`, in each lead's own zones.
  calling_purpose purpose = calling_purpose::none;
  const calling_rule_book* rules = nullptr;
  // The tenant's own contact cap (tenant_cap_rule), for every purpose;
  // shared, so a rule a lead's view points to outlives a copy of the policy.
  std::shared_ptr<const calling_rule> tenant_cap;
};

// A lead as its calls are scheduled: its number (the zones it may be in)
// and its place (the calling rules that govern it).
struct dial_target {
  std::string_view phone_e164;
  callee where;
  // The tenant's calls to the number in the contact caps' lookback, newest
  // first (lookback_of): what its caps count.
  std::vector<timestamp> recent_calls;
};

// The policy of a stored campaign. A null campaign field means:
// - timezone: UTC (an unknown name, which validation refuses, also UTC);
// - start_date / end_date: no bound on that side;
// - days_of_week: every day (unknown day names are ignored; an empty list
//   means no day);
// - daily_start_time 00:00, daily_end_time 24:00 (the whole day);
// - max_call_attempts 3; max_daily_attempts = max_call_attempts;
// - min_gap_between_attempts 60 (the field is in minutes).
// voicemail_is_answer is consider_voicemail_as_answered. The calling rules
// are the ones compiled in (calling_rules()), for the campaign's purpose,
// and the tenant's contact cap is the campaign row's (campaign::tenant_cap).
dial_policy policy_of(const campaign& c, bool lead_local_time = false);

enum class campaign_phase : uint8_t { before_start, running, after_end };

// Local midnight starting start_date, and local midnight ending end_date,
// in the policy's zone (zone->to_sys(..., choose::earliest): a midnight
// skipped by DST maps to the transition instant); nullopt without a date.
std::optional<timestamp> start_instant(const dial_policy& p);
std::optional<timestamp> end_instant(const dial_policy& p);

// before_start until start_instant, after_end from end_instant on.
campaign_phase phase_at(const dial_policy& p, timestamp now);

// True when `now`, on the local timeline of `zone` (UTC when null), falls on
// a day of p.days_mask at a time of day in [daily_start, daily_end).
bool window_open(const dial_policy& p, const date::time_zone* zone, timestamp now);

// The earliest instant >= now at which window_open is true, looking up to
// 8 local days ahead; nullopt when days_mask is 0 or the daily window is
// empty. A start skipped by a DST jump opens at the jump (02:30 on the US
// spring-forward day opens at 03:00 local); a start repeated by a fall-back
// opens at its first occurrence, and again at the second. The campaign's
// start and end dates are not considered (see phase_at).
std::optional<timestamp> next_window_open(const dial_policy& p, const date::time_zone* zone,
                                          timestamp now);

// The tz-database zone of that name; UTC when absent or unknown.
const date::time_zone* zone_named(const std::optional<std::string>& name);

// The local day of `now` in `zone` (UTC when null): "YYYY-MM-DD".
std::string local_day(const date::time_zone* zone, timestamp now);

// The start of the local day after the one of `now` in `zone` (UTC when
// null).
timestamp next_day_start(const date::time_zone* zone, timestamp now);

// The start of the local day after the one of `now`, in the policy's zone
// (where max_daily_attempts counts again).
timestamp next_local_day(const dial_policy& p, timestamp now);

// The start of the local day of `now` in the policy's zone (where the day
// max_daily_attempts counts on began).
timestamp local_day_start(const dial_policy& p, timestamp now);

// When the calling hours that are open at `opened` close, in the policy's
// zone: daily_end on that local day (the next midnight for 24:00).
timestamp window_close(const dial_policy& p, timestamp opened);

// The zones whose calling hours apply to a number: with p.lead_local_time
// every zone the number may be in (phone_time_zones), when known; otherwise
// the campaign's zone.
std::vector<const date::time_zone*> calling_zones(const dial_policy& p,
                                                  std::string_view phone_e164);

// True when the daily window is open: in the campaign's zone; or, with
// p.lead_local_time and a number whose zones are known (phone_time_zones),
// in EVERY zone the number may be in (calling hours must hold wherever the
// callee may be); a number with unknown zones falls back to the
// campaign's zone.
bool window_open_for(const dial_policy& p, std::string_view phone_e164, timestamp now);

// The zones the calling rules read a lead's local time in: every zone the
// number may be in, or the campaign's when none is known.
std::vector<const date::time_zone*> callee_zones(const dial_policy& p, std::string_view phone_e164);

// The calling rules that govern a call to the lead under the policy.
std::vector<const calling_rule*> rules_for(const dial_policy& p, const dial_target& lead);

// The calling rule that forbids calling the lead at `now` (the one that
// holds it longest); nullptr when none does.
const calling_rule* legal_hold(const dial_policy& p, const dial_target& lead, timestamp now);

// The contact caps that govern a call to the lead at `now`: the rules'
// for the policy's purpose, and the tenant's.
std::vector<const calling_rule*> caps_for(const dial_policy& p, const dial_target& lead,
                                          timestamp now);

// How far back and how many of a number's calls the policy's caps count.
contact_lookback lookback_of(const dial_policy& p);

// The contact cap the lead's recent calls have reached at `now`.
std::optional<cap_hold> contact_cap_hold(const dial_policy& p, const dial_target& lead,
                                         timestamp now);

// True when the campaign is running, window_open_for holds and no calling
// rule forbids the call (its contact caps aside: they count calls, which
// the dial pass reads under their locks).
bool can_dial_now(const dial_policy& p, const dial_target& lead, timestamp now);

// can_dial, then outside_window when !can_dial_now.
dial_refusal can_dial_at(const lead_call_state& s, const dial_policy& p, const dial_target& lead,
                         timestamp now);

// When the campaign places its next call, as far as the campaign itself
// tells (the campaign read's next_dial_at): nullopt unless it is SCHEDULED
// or ACTIVE, a dialer look is due (`dialer_look`, campaigns.next_dial_at)
// and a lead may be called (`first_dialable_at`). Otherwise the later of
// the two, moved to the next opening of the daily window (in the
// campaign's zone; with lead_local_time each lead's own hours may put it
// later), and nullopt when that is at or after the end date.
std::optional<timestamp> next_dial_time(const dial_policy& p, campaign_status status,
                                        std::optional<timestamp> dialer_look,
                                        std::optional<timestamp> first_dialable_at);

} // namespace vcs::domain
