#include "domain/permission.hpp"

#include <algorithm>
#include <array>

namespace vcs::domain {
namespace {

constexpr std::array<std::string_view, std::size(all_permissions)> names_of{
    "campaigns:read", "campaigns:write", "leads:read",    "leads:write",   "clients:read",
    "clients:write",  "billing:read",    "billing:write", "webhooks:read", "webhooks:write",
    "keys:read",      "keys:write",      "members:read",  "members:write"};

} // namespace

std::string_view to_string(permission p) noexcept {
  return names_of[static_cast<std::size_t>(p)];
}

std::optional<permission> parse_permission(std::string_view text) noexcept {
  for (auto p : all_permissions)
    if (to_string(p) == text)
      return p;
  return std::nullopt;
}

permission_set permission_set::all() noexcept {
  permission_set s;
  for (auto p : all_permissions)
    s.add(p);
  return s;
}

permission_set permission_set::read_only() noexcept {
  permission_set s;
  for (auto p : all_permissions)
    if (to_string(p).ends_with(":read"))
      s.add(p);
  return s;
}

std::vector<std::string_view> permission_set::names() const {
  std::vector<std::string_view> out;
  for (auto p : all_permissions)
    if (has(p))
      out.push_back(to_string(p));
  return out;
}

bool key_scope::reaches_campaign(int64_t campaign_id) const {
  return !campaigns ||
         std::find(campaigns->begin(), campaigns->end(), campaign_id) != campaigns->end();
}

bool key_scope::reaches_all(const std::vector<int64_t>& campaign_ids) const {
  return std::all_of(campaign_ids.begin(), campaign_ids.end(),
                     [&](int64_t c) { return reaches_campaign(c); });
}

error missing_permission(permission p) {
  return {errc::forbidden, "This API key lacks the permission " + std::string{to_string(p)}};
}

error campaign_out_of_scope() {
  return {errc::forbidden, "This API key has no access to this campaign"};
}

std::optional<error> check_reaches(const key_scope& scope,
                                   const std::vector<int64_t>& campaign_ids) {
  if (scope.reaches_all(campaign_ids))
    return std::nullopt;
  return campaign_out_of_scope();
}

error campaign_creation_out_of_scope() {
  return {errc::forbidden, "This API key reaches only some campaigns and cannot create one"};
}

error pool_change_out_of_scope() {
  return {errc::forbidden, "This API key reaches only some campaigns and cannot change phone "
                           "number pools"};
}

std::optional<error> check_within(const key_scope& holder, const key_scope& wanted) {
  for (auto p : all_permissions)
    if (wanted.permissions.has(p) && !holder.permissions.has(p))
      return error{errc::forbidden, "A key cannot reach more than the key that manages it: it "
                                    "lacks " +
                                        std::string{to_string(p)}};
  if (holder.campaigns && (!wanted.campaigns || !holder.reaches_all(*wanted.campaigns)))
    return error{errc::forbidden, "A key cannot reach more than the key that manages it: a "
                                  "campaign outside its own"};
  if (holder.expires_at && (!wanted.expires_at || *wanted.expires_at > *holder.expires_at))
    return error{errc::forbidden, "A key cannot reach more than the key that manages it: it "
                                  "expires later"};
  return std::nullopt;
}

} // namespace vcs::domain
