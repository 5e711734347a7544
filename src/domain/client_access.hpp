#pragma once

// What a client user (a tenant's client signed in to the portal) may do:
// the resources assigned to its client's account configurations, at the
// level its client was given for each kind (client_access). The meaning of
// each level for each kind is in
// docs/decisions/clients-and-billing.md#client-portal-client-users.

#include "domain/error.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vcs::domain {

// Ordered: each level allows what the ones before it allow.
enum class access_level : uint8_t { no_access, view_only, view_and_add, full_access };

// "no_access", "view_only", "view_and_add", "full_access".
std::string_view to_string(access_level l) noexcept;
std::optional<access_level> parse_access_level(std::string_view text) noexcept;

// The level of one resource kind in a client's client_access (kind to level
// name): the one given, or view_only for a kind without one (its assigned
// resources are shown, never changed).
access_level level_of(const std::vector<std::pair<std::string, std::string>>& access,
                      std::string_view kind);

// A client user's session: who, and what its client holds.
struct client_user_access {
  int64_t client_user_id = 0;
  int64_t client_id = 0;
  access_level campaigns = access_level::no_access;
  // The client's live subscription's status; empty without one.
  std::string subscription_status;
};

// Whether a subscription in `status` shuts the portal to all but billing
// (past_due, blocked).
bool portal_blocked(std::string_view subscription_status) noexcept;

// 403 while the portal is shut for a payment.
error portal_payment_required(std::string_view subscription_status);
// 403 for a route a client user may not use at all.
error closed_to_client_users();
// 403 for a route above the client's level on campaigns.
error client_level_too_low(access_level held, access_level needed);

} // namespace vcs::domain
