#pragma once

#include "domain/tenant.hpp"
#include "domain/tenant_patch.hpp"

#include <optional>
#include <string>

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

} // namespace vcs::storage
