#pragma once

#include "domain/client_create.hpp"
#include "domain/error.hpp"

#include <optional>

namespace soci {
class session;
}

namespace vcs::storage {

bool account_configuration_exists(soci::session& sql, int64_t tenant_id, int64_t config_id);

// Every resource kind with its ids in the order assigned (empty lists
// included), in the spec's kind order.
domain::assignments read_assignments(soci::session& sql, int64_t tenant_id, int64_t config_id);

// Replaces the configuration's whole set atomically (the configuration row
// is locked for the transaction); campaign ids must be the tenant's, else
// the spec's validation error.
domain::result<domain::assignments> replace_assignments(soci::session& sql, int64_t tenant_id,
                                                        int64_t config_id,
                                                        const domain::assignments& set,
                                                        const std::vector<int64_t>& campaign_ids);

} // namespace vcs::storage
