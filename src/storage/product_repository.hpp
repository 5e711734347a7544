#pragma once

#include "domain/billing.hpp"

#include <optional>
#include <string>

namespace soci {
class session;
}

namespace vcs::storage {

// Inserts a product with its prices; nothing when the tenant's catalog
// already has its product id or one of its price ids. The product row may
// be written by then: the caller's transaction must not commit it.
std::optional<domain::product> insert_product(soci::session& sql, int64_t tenant_id,
                                              const domain::product& p);

// The tenant's product with this processor id, with its prices.
std::optional<domain::product> find_product(soci::session& sql, int64_t tenant_id,
                                            const std::string& processor_product_id);

} // namespace vcs::storage
