#pragma once

#include "domain/tenant.hpp"
#include "storage/page.hpp"

#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

domain::api_key_info insert_api_key(soci::session& sql, int64_t tenant_id, const std::string& name,
                                    const std::string& key_hash, const std::string& masked_key,
                                    const domain::key_scope& scope = {});

std::vector<domain::api_key_info> list_api_keys(soci::session& sql, int64_t tenant_id);

// One page of the tenant's keys, oldest first (a key may list up to 1,000
// campaigns, so the whole list is too large to answer at once).
page_of<domain::api_key_info> page_api_keys(soci::session& sql, int64_t tenant_id,
                                            const page_request& page);

// The tenant's keys, counted with its row locked until the transaction
// ends, so two makers on two nodes count one after the other.
int64_t count_api_keys_locked(soci::session& sql, int64_t tenant_id);

// Operator look-up by key id alone: keys are addressed without their tenant
// on the operator plane.
std::optional<domain::api_key_info> find_api_key(soci::session& sql, int64_t key_id);

// A key of the tenant, locked until the transaction ends.
std::optional<domain::api_key_info> lock_api_key(soci::session& sql, int64_t tenant_id,
                                                 int64_t key_id);

std::optional<domain::api_key_info> set_api_key_status(soci::session& sql, int64_t tenant_id,
                                                       int64_t key_id,
                                                       domain::api_key_status status);

// Permanent: the row goes, so the key can never authenticate again.
bool delete_api_key(soci::session& sql, int64_t tenant_id, int64_t key_id);

// Resolves a bearer key's hash to the tenant it acts for (one indexed read).
std::optional<domain::principal> find_principal(soci::session& sql, const std::string& key_hash);

struct principal_and_campaign {
  domain::principal principal;
  // The campaign's leads version; nullopt when the key's tenant has no such
  // campaign.
  std::optional<int64_t> leads_version;
};

// find_principal, and in the same round trip the leads version of one of
// the key's tenant's campaigns (storage::begin_locking_campaign bumps it).
std::optional<principal_and_campaign>
find_principal(soci::session& sql, const std::string& key_hash, int64_t campaign_id);

} // namespace vcs::storage
