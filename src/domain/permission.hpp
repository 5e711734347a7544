#pragma once

// What an API key may do: a verb (read, write) on an area of the API, and
// optionally only some campaigns and only until some time. A key made by an
// operator, or before keys had permissions, may do everything.

#include "domain/error.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

enum class permission : uint8_t {
  campaigns_read,
  campaigns_write,
  leads_read,
  leads_write,
  clients_read,
  clients_write,
  billing_read,
  billing_write,
  webhooks_read,
  webhooks_write,
  keys_read,
  keys_write,
  members_read,
  members_write,
};

inline constexpr permission all_permissions[] = {
    permission::campaigns_read, permission::campaigns_write, permission::leads_read,
    permission::leads_write,    permission::clients_read,    permission::clients_write,
    permission::billing_read,   permission::billing_write,   permission::webhooks_read,
    permission::webhooks_write, permission::keys_read,       permission::keys_write,
    permission::members_read,   permission::members_write};

// "campaigns:read", as a request names it.
std::string_view to_string(permission p) noexcept;
std::optional<permission> parse_permission(std::string_view text) noexcept;

class permission_set {
public:
  constexpr permission_set() = default;
  static permission_set all() noexcept;
  // Every :read permission: the read-only preset.
  static permission_set read_only() noexcept;

  bool has(permission p) const noexcept { return bits_ & bit(p); }
  void add(permission p) noexcept { bits_ |= bit(p); }
  bool within(permission_set other) const noexcept { return (bits_ & ~other.bits_) == 0; }
  bool operator==(const permission_set&) const = default;
  // Their names, in all_permissions order.
  std::vector<std::string_view> names() const;

private:
  static constexpr uint16_t bit(permission p) noexcept {
    return static_cast<uint16_t>(1u << static_cast<unsigned>(p));
  }
  uint16_t bits_ = 0;
};

// What one key may reach.
struct key_scope {
  permission_set permissions = permission_set::all();
  // Only these campaigns (and no new one); nullopt: every campaign.
  std::optional<std::vector<int64_t>> campaigns;
  std::optional<timestamp> expires_at;

  bool reaches_campaign(int64_t campaign_id) const;
  // Whether it reaches every one of `campaign_ids`.
  bool reaches_all(const std::vector<int64_t>& campaign_ids) const;
};

// 403 naming the permission a request lacks.
error missing_permission(permission p);
// 403 for a campaign outside the key's campaigns.
error campaign_out_of_scope();
// 403 for campaigns a body or a query names (a client's assignments, a
// widget's campaign, a delivery filter) that the key does not reach: a
// scope holds wherever a campaign id travels, not only in a path.
std::optional<error> check_reaches(const key_scope& scope,
                                   const std::vector<int64_t>& campaign_ids);
// 403 for a campaign made with a key held to some campaigns.
error campaign_creation_out_of_scope();

// 403: a key limited to some campaigns changes no phone number pool (a
// pool serves every campaign of the tenant).
error pool_change_out_of_scope();

// Whether a key holding `holder` may make a key of `wanted`, or enable,
// disable or delete one: never one that reaches more (a permission, a
// campaign or a later expiry it lacks). The 403 says what is more.
std::optional<error> check_within(const key_scope& holder, const key_scope& wanted);

} // namespace vcs::domain
