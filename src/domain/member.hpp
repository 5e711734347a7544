#pragma once

// The people of a tenant who sign in to the console: their roles, what each
// role may do, and how long their links and sessions last.

#include "domain/error.hpp"
#include "domain/permission.hpp"
#include "domain/timestamp.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

enum class member_role : uint8_t { owner, admin, viewer };

// "owner", "admin", "viewer".
std::string_view to_string(member_role r) noexcept;
std::optional<member_role> parse_member_role(std::string_view text) noexcept;

// owner: everything; admin: everything but managing members; viewer: the
// read-only preset.
permission_set role_permissions(member_role r) noexcept;

struct member_info {
  int64_t id = 0;
  int64_t tenant_id = 0;
  std::string email;
  member_role role = member_role::viewer;
  // False until the member has used its set-up link (no password yet).
  bool active = false;
  timestamp created_at{};
  std::optional<timestamp> last_sign_in_at;
};

// A set-up link (a new owner's, an invitation) works once, for a day.
inline constexpr std::chrono::hours setup_link_validity{24};
// A session ends after this long without a request, and this long after it
// began whatever happens.
inline constexpr std::chrono::minutes session_idle_timeout{60};
inline constexpr std::chrono::hours session_lifetime{12};
// The most sessions one member holds; signing in again ends the oldest.
inline constexpr int max_sessions_per_member = 20;

// A member's e-mail: 3 to 254 characters with one @ and no spaces or
// control characters; compared without case.
bool valid_member_email(std::string_view email) noexcept;

// Whether a caller holding `holder` may invite, change or remove a member of
// `role`: never one that reaches more (a member reaches every campaign and
// does not expire). The 403 says what is more.
std::optional<error> check_role_within(const key_scope& holder, member_role role);

// 409 when removing `m` (`to` nullopt) or giving it role `to` would leave
// its tenant, which has `active_owners`, without an owner who can sign in.
std::optional<error> check_keeps_an_owner(const member_info& m, std::optional<member_role> to,
                                          int64_t active_owners);

// 403 for a session whose role lacks `p`.
error role_lacks_permission(member_role r, permission p);

} // namespace vcs::domain
