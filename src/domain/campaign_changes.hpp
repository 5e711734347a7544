#pragma once

// What a stored campaign may become: the rules of an update and of a status
// change, checked after the campaign's row lock (campaign_work.cpp reads
// what they need and writes what they allow).

#include "domain/campaign.hpp"
#include "domain/error.hpp"

#include <optional>
#include <string>

namespace vcs::domain {

// An update's rules, checked in this order around the one that reads the
// database (the voice provider is the tenant's):
// - each create-only field (type, provider_a_calling_entity, start_date,
//   end_date) sent only with its stored value
//   (docs/decisions/campaigns.md#campaigns: a different one is the spec's
//   "immutable");
std::optional<error> check_create_only_fields(const campaign& stored,
                                              const campaign_fields& update);
// - the fields that relate to each other (daily window, attempts) valid
//   together, whichever of them was sent.
std::optional<error> check_related_fields(const campaign& stored, const campaign_fields& update);

// Whether asking for `to` changes the campaign: another status, or a pause
// by hand of a campaign paused for another reason, which then stays paused
// when that reason ends.
bool changes_status(const campaign& c, campaign_status to) noexcept;

// Whether moving to `to` needs the client's billing state: a billing block
// keeps campaigns from becoming ACTIVE or SCHEDULED.
bool billing_may_block(campaign_status to) noexcept;

// Whether a campaign in `from` may move to `to` (a different status). An
// ENDED campaign stays ENDED; `blocked_by` is the client's subscription
// status when it blocks the move (read when billing_may_block(to)).
std::optional<error> check_status_change(campaign_status from, campaign_status to,
                                         const std::optional<std::string>& blocked_by);

} // namespace vcs::domain
