#pragma once

// The dialer's transactions, run by a campaign actor's group commit (the
// campaign row lock is held: dial passes and call updates of one campaign
// are serialised on every node).

#include "actors/dialer_messages.hpp"
#include "actors/entity_config.hpp"
#include "actors/voice_gateway.hpp"

#include <vector>

namespace soci {
class session;
}

namespace vcs::actors {

// One dial pass as of `now`: moves the campaign through its schedule
// (SCHEDULED → ACTIVE at its start, ENDED after its end date), reserves
// slots of its provider configuration under that row's lock, starts an
// attempt on each callable lead and records the call, then sets when the
// campaign should be looked at next. Answers the calls to place.
std::vector<call_placement> dial_pass(soci::session& sql, const entity_config& cfg,
                                      int64_t tenant_id, int64_t campaign_id,
                                      domain::timestamp now);

// Applies a provider's report to the call and its lead (the state machine
// of domain/call_state.hpp) and queues the webhook events. Reports on a call
// that already ended are ignored (providers retry their callbacks). Answers
// whether the call ended with this report.
bool apply_call_update(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                       const call_update& update, domain::timestamp now);

} // namespace vcs::actors
