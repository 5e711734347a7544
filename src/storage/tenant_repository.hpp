#pragma once

#include "domain/tenant.hpp"

#include <optional>
#include <string>

namespace soci {
class session;
}

namespace vcs::storage {

domain::tenant insert_tenant(soci::session& sql, const std::string& name, domain::plan plan,
                             std::optional<int32_t> campaign_limit);

std::optional<domain::tenant> find_tenant(soci::session& sql, int64_t tenant_id);

// Fields an operator may change; absent members stay as they are.
struct tenant_patch {
  std::optional<std::string> name;
  std::optional<domain::plan> plan;
  // Outer optional: whether to change; inner: the override, or back to the
  // plan default.
  std::optional<std::optional<int32_t>> campaign_limit;
  std::optional<bool> active;
};

std::optional<domain::tenant> update_tenant(soci::session& sql, int64_t tenant_id,
                                            const tenant_patch& patch);

} // namespace vcs::storage
