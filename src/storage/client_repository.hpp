#pragma once

#include "domain/client.hpp"
#include "domain/client_create.hpp"
#include "domain/error.hpp"
#include "storage/page.hpp"

#include <optional>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

// The tenant's clients with their users, newest first: at most `limit`,
// after `after` (from the newest when absent).
std::vector<domain::client> list_clients(soci::session& sql, int64_t tenant_id,
                                         const std::optional<newest_first_cursor>& after,
                                         int64_t limit);
// One page of them, and how many there are.
page_of<domain::client> page_of_clients(soci::session& sql, int64_t tenant_id,
                                        const page_request& page);

// Creates the client with its users, account configuration, access,
// assignments and (when a product is selected) its subscription and usage
// balance, inside the caller's transaction. References to the tenant's
// records (voice provider, product and prices, campaigns) and e-mail
// uniqueness are checked first; a problem answers the spec's validation
// error, and the caller must not commit what was written before it (a
// refused write is undone).
domain::result<domain::created_client> create_client(soci::session& sql, int64_t tenant_id,
                                                     const domain::client_create& req);

// The same checks alone, read-only and outside any transaction: run before
// the passwords are hashed, so a request that cannot succeed costs no
// hashing. create_client checks again, as something may change between.
std::optional<domain::error> check_client_create(soci::session& sql, int64_t tenant_id,
                                                 const domain::client_create& req);

} // namespace vcs::storage
