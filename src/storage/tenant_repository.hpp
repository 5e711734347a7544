#pragma once

#include "domain/tenant.hpp"
#include "domain/tenant_patch.hpp"

#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

domain::tenant insert_tenant(soci::session& sql, const std::string& name, domain::plan plan,
                             std::optional<int32_t> campaign_limit);

std::optional<domain::tenant> find_tenant(soci::session& sql, int64_t tenant_id);

// Applies an operator's change; absent members stay as they are.
std::optional<domain::tenant> update_tenant(soci::session& sql, int64_t tenant_id,
                                            const domain::tenant_patch& patch);

// Tenants in id order after `after_id` (0: from the first), active or
// inactive ones only when `active` is set; at most `limit`.
std::vector<domain::tenant> list_tenants(soci::session& sql, int64_t after_id,
                                         std::optional<bool> active, int32_t limit);

} // namespace vcs::storage
