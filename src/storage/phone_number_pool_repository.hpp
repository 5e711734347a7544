#pragma once

// Phone number pools and their numbers (migration 0034). A number's calls
// today are those of the pool's current day (in its time zone); the dial
// pass counts them under the pool row lock.

#include "domain/campaign.hpp"
#include "domain/error.hpp"
#include "domain/phone_number_pool.hpp"
#include "domain/timestamp.hpp"
#include "storage/page.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

inline constexpr int64_t max_pools_per_tenant = 1000;

// A new pool with its numbers (fields validated, defaults filled), under
// the tenant row lock; nullopt when the tenant has max_pools_per_tenant.
std::optional<domain::phone_number_pool> insert_pool(soci::session& sql, int64_t tenant_id,
                                                     const domain::pool_fields& f,
                                                     domain::timestamp now);

// The tenant's pools, oldest first, with their numbers' calls today.
page_of<domain::phone_number_pool> list_pools(soci::session& sql, int64_t tenant_id,
                                              const page_request& page, domain::timestamp now);

std::optional<domain::phone_number_pool> find_pool(soci::session& sql, int64_t tenant_id,
                                                   int64_t pool_id, domain::timestamp now);

// Changes the given fields; given numbers replace the pool's (a number
// kept keeps its calls today), and the campaigns using the pool look at it
// again. nullopt when the tenant has no such pool.
std::optional<domain::phone_number_pool> update_pool(soci::session& sql, int64_t tenant_id,
                                                     int64_t pool_id, const domain::pool_fields& f,
                                                     domain::timestamp now);

// Deletes the pool unless a campaign that has not ended uses it.
enum class pool_removal : uint8_t { removed, not_found, in_use };
pool_removal delete_pool(soci::session& sql, int64_t tenant_id, int64_t pool_id);

// Whether the tenant has the pool, holding it (FOR KEY SHARE) until the
// transaction ends so that it cannot be deleted under a campaign naming it.
bool hold_pool(soci::session& sql, int64_t tenant_id, int64_t pool_id);

// A campaign's phone_number_pool_id, when given, names one of the tenant's
// pools, held as hold_pool does; else the 404 saying so.
std::optional<domain::error> hold_named_pool(soci::session& sql, int64_t tenant_id,
                                             const domain::campaign_fields& f);

// The pool under its row lock (FOR NO KEY UPDATE: every node's dial pass
// of a campaign using it queues here, so the daily caps cannot be raced).
std::optional<domain::phone_number_pool> lock_pool(soci::session& sql, int64_t tenant_id,
                                                   int64_t pool_id, domain::timestamp now);

// Writes the numbers' calls today (as counted under lock_pool's lock).
void store_pool_use(soci::session& sql, const domain::phone_number_pool& pool,
                    domain::timestamp now);

// The number each of these leads was last called from, where one was.
std::map<int64_t, std::string> last_caller_numbers(soci::session& sql, int64_t tenant_id,
                                                   const std::vector<int64_t>& lead_ids);

} // namespace vcs::storage
