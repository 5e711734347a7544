#pragma once

// What a client user at full_access may change in a campaign assigned to
// it: the campaign's own settings, and only resources the tenant assigned
// to the client. Where the campaign's results go (webhook_url) and what its
// calls are (calling_purpose, which decides the calling rules) stay the
// tenant's.

#include "domain/campaign.hpp"
#include "domain/client_create.hpp"
#include "domain/error.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace vcs::domain {

// The resources a client may name: its assignments (every configuration's)
// and its configurations' voice providers.
struct client_resources {
  assignments assigned;
  std::vector<int64_t> voice_provider_ids;
};

// 403 naming each field a client may not set to what `changes` gives
// (errors under the field's name); nullopt when it may make them all. A
// field given as `current` already has it is no change (a page sends its
// whole form back).
std::optional<error> check_client_campaign_changes(const campaign_fields& changes,
                                                   const campaign& current,
                                                   const client_resources& resources);

} // namespace vcs::domain
