#pragma once

// Calls and the dialing state of leads (migration 0004). Every function runs
// inside the caller's transaction; the campaign functions expect the
// campaign row lock to be held (the campaign actor's prologue).

#include "domain/call_lead.hpp"
#include "domain/call_result.hpp"
#include "domain/call_state.hpp"
#include "domain/callee.hpp"
#include "domain/campaign.hpp"
#include "domain/dial_state.hpp"
#include "domain/placement_refusal.hpp"
#include "domain/secret_box.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

// The campaign's side of dialing at `now` (domain/dial_state.hpp). A billing
// block pauses the campaign; reading it here guards the moment between the
// block and its pause. It is read only for a campaign that could dial. A
// POOL campaign's pool is read without its lock.
domain::campaign_dial_facts read_dial_facts(soci::session& sql, const domain::campaign& c,
                                            const domain::dial_policy& p, domain::timestamp now);

// The lines of a provider configuration of the tenant and how many of them
// hold a call; nullopt without such a configuration.
struct line_use {
  int32_t lines = 0;
  int64_t open = 0;
};
std::optional<line_use> read_line_use(soci::session& sql, int64_t tenant_id,
                                      int64_t voice_provider_id);

// What the dial states of some leads of a campaign are computed from
// (domain::lead_dial_state), read without locks: the campaign's policy and
// its side of dialing, the free lines of its provider configuration, the leads' dialing
// fields by id, and which of `phones` are on the tenant's do-not-call list.
// nullopt when the tenant has no such campaign. At most a page of leads.
struct dial_inputs {
  domain::dial_policy policy;
  domain::campaign_dial_facts facts;
  int64_t free_lines = 0;
  std::map<int64_t, domain::lead_call_state> states;
  // Where each lead's person is, for the calling rules.
  std::map<int64_t, domain::callee> places;
  std::set<std::string> listed;
  // The numbers' recent calls, for the contact caps (a campaign with a
  // calling purpose only).
  std::map<std::string, std::vector<domain::timestamp>> recent;
};
std::optional<dial_inputs> read_dial_inputs(soci::session& sql, int64_t tenant_id,
                                            int64_t campaign_id,
                                            const std::vector<int64_t>& lead_ids,
                                            const std::vector<std::string>& phones,
                                            domain::timestamp now);

// A lead the dialer may call now, with its dialing state.
struct dial_candidate {
  int64_t lead_id = 0;
  std::string phone_number;
  domain::lead_call_state state;
  // custom_fields.simulated_outcomes and .simulated_evaluations, read by
  // the simulated provider.
  std::optional<std::string> script;
  std::optional<std::string> evaluation_script;
  // What a live provider is told about the lead.
  domain::call_lead lead;
  // Where its person is, for the calling rules.
  domain::callee where;
};

// Up to `limit` IDLE leads of the campaign that are not answered, opted out
// (on the lead or on the tenant's do-not-call list) or invalid, whose next
// attempt is due by `now`, below `max_attempts`, and below `max_daily` on
// `today` (the local day the campaign counts by); by priority, then oldest
// next attempt (never called first), then insertion order.
std::vector<dial_candidate> dial_candidates(soci::session& sql, int64_t tenant_id,
                                            int64_t campaign_id, domain::timestamp now,
                                            int32_t max_attempts, int32_t max_daily,
                                            const std::string& today, int32_t limit);

// Writes a lead's dialing fields.
void store_call_state(soci::session& sql, int64_t tenant_id, int64_t lead_id,
                      const domain::lead_call_state& state);

// Writes several leads' dialing fields in one statement.
struct lead_state_write {
  int64_t lead_id = 0;
  domain::lead_call_state state;
};
void store_call_states(soci::session& sql, int64_t tenant_id,
                       const std::vector<lead_state_write>& writes);

// The campaign's leads with these phone numbers and their dialing state,
// under their row locks (taken in id order).
struct locked_call_state {
  int64_t lead_id = 0;
  std::string phone_number;
  domain::lead_call_state state;
};
std::vector<locked_call_state> lock_call_states(soci::session& sql, int64_t tenant_id,
                                                int64_t campaign_id,
                                                const std::vector<std::string>& phone_numbers);

std::optional<domain::lead_call_state> find_call_state(soci::session& sql, int64_t tenant_id,
                                                       int64_t lead_id);

// The provider configuration's slots, under its row lock (FOR NO KEY UPDATE:
// every node's dial transaction for that configuration queues here, so the
// count of open calls cannot be raced past the limit).
struct provider_slots {
  std::string kind;
  int32_t limit = 0;
  int64_t open = 0;
  domain::secret_box::sealed credentials;
};
std::optional<provider_slots> lock_provider_slots(soci::session& sql, int64_t tenant_id,
                                                  int64_t voice_provider_id);

// A new call to `phone_number`, placed from `phone_number_id` (the
// provider's number: the campaign's, or one of its pool's).
// `dialed_at`: the pass's instant, which the contact caps count by.
int64_t insert_call(soci::session& sql, int64_t tenant_id, int64_t campaign_id, int64_t lead_id,
                    const std::string& phone_number, int64_t voice_provider_id, int32_t attempt,
                    const std::string& node_id, const std::optional<std::string>& phone_number_id,
                    domain::timestamp dialed_at);

// The tenant's calls to each of `numbers` dialed after `since` that the
// provider did not refuse, newest first, at most `per_number` a number:
// what the contact caps count (domain/contact_caps.hpp).
using recent_contacts = std::map<std::string, std::vector<domain::timestamp>>;
recent_contacts read_recent_contacts(soci::session& sql, int64_t tenant_id,
                                     const std::vector<std::string>& numbers,
                                     domain::timestamp since, int32_t per_number);

// The same, first taking a lock per number of the tenant held until the
// transaction ends, in one order: a dial pass of any campaign of the
// tenant, on any node, counts a number's calls only after the passes
// before it have committed theirs. Taken after the campaign's, provider
// configuration's and pool's locks.
recent_contacts lock_recent_contacts(soci::session& sql, int64_t tenant_id,
                                     std::vector<std::string> numbers, domain::timestamp since,
                                     int32_t per_number);

// A call that has not ended.
struct open_call {
  int64_t id = 0;
  int64_t campaign_id = 0;
  int64_t lead_id = 0;
  std::string phone_number;
  int32_t attempt = 0;
  std::string status;
  std::string lead_custom_fields_json = "{}"; // for the call's events
  // The pool number it was placed from (POOL campaigns).
  std::optional<std::string> phone_number_id;
};
std::optional<open_call> find_open_call(soci::session& sql, int64_t tenant_id, int64_t call_id);

void mark_call_ringing(soci::session& sql, int64_t call_id, const std::string& provider_call_id);

// Records the provider's name for the call (it stays QUEUED).
void set_provider_call_id(soci::session& sql, int64_t call_id, const std::string& provider_call_id);

// Where a provider's callback about one of a configuration's calls goes:
// by our call id when the provider echoes it, else by the provider's id.
struct call_route {
  int64_t tenant_id = 0;
  int64_t campaign_id = 0;
  int64_t call_id = 0;
};
std::optional<call_route> route_call(soci::session& sql, int64_t voice_provider_id,
                                     std::optional<int64_t> call_id,
                                     const std::string& provider_call_id);

// Ends a call its provider refused to place: ABANDONED, with the provider's
// answer and how it refused.
void abandon_call(soci::session& sql, int64_t call_id, const std::string& error,
                  domain::placement_refusal refusal);

// The tenant, kind and sealed credentials of a provider configuration,
// found by its id alone (a provider's callback names only that).
struct callback_provider {
  int64_t tenant_id = 0;
  std::string kind;
  domain::secret_box::sealed credentials;
};
std::optional<callback_provider> find_callback_provider(soci::session& sql,
                                                        int64_t voice_provider_id);

// Whether a callback of the configuration with this signature digest was
// acknowledged within domain::signature_replay_window_ms (migration 0038),
// and recording that one was.
bool callback_seen(soci::session& sql, int64_t voice_provider_id, const std::string& digest);
void mark_callback_seen(soci::session& sql, int64_t voice_provider_id, const std::string& digest);

// Adds a later analysis to an ended call of the tenant: its summary,
// success evaluation (and verdict) and structured data, each only where the
// call has none yet.
void amend_call_result(soci::session& sql, int64_t tenant_id, int64_t call_id,
                       const domain::call_result& r);

// Ends a call: status COMPLETED, FAILED or ABANDONED, with what the
// provider reported (within its limits) and the verdict of its evaluation.
void end_call(soci::session& sql, int64_t call_id, const std::string& status,
              const std::optional<std::string>& outcome, int32_t duration_seconds,
              const std::optional<std::string>& error, const domain::call_result& result);

// How the campaign's last `limit` ended calls after `after_call_id` ended
// (calls the provider refused as busy aside):
// a count per (status, outcome). From calls_campaign_idx, newest first, so
// it reads at most `limit` ended calls and the few still open among them.
struct call_ending {
  std::string status;
  std::optional<std::string> outcome;
  int64_t count = 0;
};
std::vector<call_ending> recent_call_endings(soci::session& sql, int64_t tenant_id,
                                             int64_t campaign_id, int64_t after_call_id,
                                             int32_t limit);

void set_next_dial_at(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                      std::optional<domain::timestamp> at);

struct campaign_ref {
  int64_t tenant_id = 0;
  int64_t campaign_id = 0;
};

// Campaigns due for a dial pass by `now`; each one's next_dial_at moves to
// now + lease so other nodes skip it meanwhile, held by `node` until its
// pass sets the next look. With `skip_locked` campaigns whose actor holds
// the row are passed over (periodic rounds); without, the claim waits for
// them (a round on demand must not miss one).
std::vector<campaign_ref> claim_due_campaigns(soci::session& sql, domain::timestamp now,
                                              int32_t lease_seconds, int32_t limit,
                                              bool skip_locked, const std::string& node);

// A stopping node gives up the campaigns whose pass it never finished, so
// another node's next round dials them instead of waiting out the lease.
// Returns how many it released.
int64_t release_dial_claims(soci::session& sql, const std::string& node);

// Campaigns not ENDED whose end date is over in their time zone by `now`.
std::vector<campaign_ref> campaigns_past_end(soci::session& sql, domain::timestamp now,
                                             int32_t limit);

struct call_ref {
  int64_t tenant_id = 0;
  int64_t campaign_id = 0;
  int64_t call_id = 0;
};

// Open calls older than `max_age_seconds` (their node died, or the provider
// never reported): the sweep ends them as lost.
std::vector<call_ref> lost_calls(soci::session& sql, int32_t max_age_seconds, int32_t limit);

// Ended calls whose minutes are not yet in the usage, with the live
// subscription of the client whose account configuration holds the campaign
// (none: nothing to charge).
struct usage_due {
  int64_t tenant_id = 0;
  int64_t call_id = 0;
  std::optional<int64_t> subscription_id;
};
std::vector<usage_due> calls_without_usage(soci::session& sql, int32_t limit);

// Marks the call's usage recorded and answers its duration, once: nullopt
// when it was recorded before (or the call is not the tenant's or not ended).
std::optional<int32_t> take_call_usage(soci::session& sql, int64_t tenant_id, int64_t call_id);

// The tenant-wide do-not-call list: add answers whether the number was new,
// remove whether it was there.
bool add_do_not_call(soci::session& sql, int64_t tenant_id, const std::string& phone_number);
bool remove_do_not_call(soci::session& sql, int64_t tenant_id, const std::string& phone_number);
bool is_do_not_call(soci::session& sql, int64_t tenant_id, const std::string& phone_number);

} // namespace vcs::storage
