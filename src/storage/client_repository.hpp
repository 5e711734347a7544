#pragma once

#include "domain/client.hpp"

#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

// Every client of the tenant with its users, newest client first.
std::vector<domain::client> list_clients(soci::session& sql, int64_t tenant_id);

} // namespace vcs::storage
