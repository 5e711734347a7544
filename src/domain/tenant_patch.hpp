#pragma once

#include "domain/calling_rules.hpp"
#include "domain/plan.hpp"
#include "domain/tenant_contact_cap.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace vcs::domain {

// An operator's change to a tenant: each field set is changed.
struct tenant_patch {
  std::optional<std::string> name;
  std::optional<domain::plan> plan;
  // Outer optional: whether to change; inner: the override, or back to the
  // plan default.
  std::optional<std::optional<int32_t>> campaign_limit;
  std::optional<bool> active;
  std::optional<calling_purpose> calling_purpose_default;
  // Outer optional: whether to change; inner: the cap, or none.
  std::optional<std::optional<tenant_contact_cap>> contact_cap;
};

} // namespace vcs::domain
