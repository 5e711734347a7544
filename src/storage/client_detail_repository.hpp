#pragma once

#include "domain/client_detail.hpp"

#include <optional>

namespace soci {
class session;
}

namespace vcs::storage {

// Everything the client detail shows, read in one snapshot (the caller's
// transaction or autocommit reads); nullopt when the tenant has no such
// client.
std::optional<domain::client_detail> read_client_detail(soci::session& sql, int64_t tenant_id,
                                                        int64_t client_id);

// The client's live (non-canceled) subscription with its product and
// prices, as the detail shows it; nullopt without one.
std::optional<domain::subscription_view>
read_client_subscription(soci::session& sql, int64_t tenant_id, int64_t client_id);

} // namespace vcs::storage
