#include "domain/member.hpp"

#include <algorithm>

namespace vcs::domain {

std::string_view to_string(member_role r) noexcept {
  switch (r) {
  case member_role::owner:
    return "owner";
  case member_role::admin:
    return "admin";
  case member_role::viewer:
    return "viewer";
  }
  return {};
}

std::optional<member_role> parse_member_role(std::string_view text) noexcept {
  for (auto r : {member_role::owner, member_role::admin, member_role::viewer})
    if (to_string(r) == text)
      return r;
  return std::nullopt;
}

permission_set role_permissions(member_role r) noexcept {
  switch (r) {
  case member_role::owner:
    return permission_set::all();
  case member_role::admin: {
    permission_set s;
    for (auto p : all_permissions)
      if (p != permission::members_write)
        s.add(p);
    return s;
  }
  case member_role::viewer:
    break;
  }
  return permission_set::read_only();
}

bool valid_member_email(std::string_view email) noexcept {
  const auto at = email.find('@');
  return email.size() >= 3 && email.size() <= 254 && at != std::string_view::npos && at > 0 &&
         at + 1 < email.size() && email.find('@', at + 1) == std::string_view::npos &&
         std::none_of(email.begin(), email.end(),
                      [](unsigned char c) { return c <= 0x20 || c == 0x7f; });
}

std::optional<error> check_role_within(const key_scope& holder, member_role role) {
  const std::string refused = "A member cannot be given more than its maker holds: ";
  for (auto p : all_permissions)
    if (role_permissions(role).has(p) && !holder.permissions.has(p))
      return error{errc::forbidden, refused + "it lacks " + std::string{to_string(p)}};
  if (holder.campaigns)
    return error{errc::forbidden, refused + "a member reaches every campaign"};
  if (holder.expires_at)
    return error{errc::forbidden, refused + "a member does not expire"};
  return std::nullopt;
}

std::optional<error> check_keeps_an_owner(const member_info& m, std::optional<member_role> to,
                                          int64_t active_owners) {
  const bool loses_owner = m.role == member_role::owner && m.active && to != member_role::owner;
  if (loses_owner && active_owners <= 1)
    return error{errc::conflict, "A tenant keeps at least one owner who can sign in; make another "
                                 "member owner first"};
  return std::nullopt;
}

error role_lacks_permission(member_role r, permission p) {
  return {errc::forbidden, "The " + std::string{to_string(r)} + " role lacks the permission " +
                               std::string{to_string(p)}};
}

} // namespace vcs::domain
