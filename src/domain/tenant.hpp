#pragma once

#include "domain/calling_rules.hpp"
#include "domain/client_access.hpp"
#include "domain/member.hpp"
#include "domain/permission.hpp"
#include "domain/plan.hpp"
#include "domain/tenant_contact_cap.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace vcs::domain {

struct tenant {
  int64_t id = 0;
  std::string name;
  domain::plan plan = plan::free;
  // Per-tenant override; when absent the plan's default applies.
  std::optional<int32_t> campaign_limit_override;
  bool active = true;
  // The calling purpose of its campaigns that name none (domain/
  // calling_rules.hpp).
  calling_purpose calling_purpose_default = calling_purpose::none;
  // Its own cap on calls to a number across its campaigns; none when absent.
  std::optional<tenant_contact_cap> contact_cap;
  timestamp created_at{};
  timestamp updated_at{};

  int32_t campaign_limit() const noexcept {
    return campaign_limit_override.value_or(default_campaign_limit(plan));
  }
};

enum class api_key_status : uint8_t { active, disabled };

// "Active" / "Disabled", as the spec lists key status.
std::string_view to_string(api_key_status s) noexcept;
std::optional<api_key_status> parse_api_key_status(std::string_view text) noexcept;

struct api_key_info {
  int64_t id = 0;
  int64_t tenant_id = 0;
  std::string name;
  std::string masked_key;
  api_key_status status = api_key_status::active;
  key_scope scope;
  timestamp created_at{};
  std::optional<timestamp> last_used_at;
};

// Who a request acts for, resolved from its bearer key, its member's
// session or its client user's portal session.
struct principal {
  int64_t tenant_id = 0;
  int64_t key_id = 0;
  domain::plan plan = plan::free;
  bool tenant_active = true;
  api_key_status key_status = api_key_status::active;
  key_scope scope;
  // Past its expires_at.
  bool key_expired = false;
  // A signed-in member's session instead of a key (key_id is then 0).
  std::optional<int64_t> member_id;
  member_role role = member_role::owner;
  // A client user's portal session instead: scope.campaigns holds its
  // client's assigned campaigns.
  std::optional<client_user_access> client;
};

// Who a principal is, as one string: "key:<id>", "member:<id>" or
// "client_user:<id>" (what an Idempotency-Key is bound to).
std::string caller_of(const principal& p);

} // namespace vcs::domain
