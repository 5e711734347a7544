#pragma once

#include "domain/client_campaign_changes.hpp"
#include "domain/client_create.hpp"
#include "domain/error.hpp"
#include "domain/permission.hpp"

#include <optional>

namespace soci {
class session;
}

namespace vcs::storage {

bool account_configuration_exists(soci::session& sql, int64_t tenant_id, int64_t config_id);

// Every resource kind with its ids in the order assigned (empty lists
// included), in the spec's kind order.
domain::assignments read_assignments(soci::session& sql, int64_t tenant_id, int64_t config_id);
// The same over every account configuration of the client.
domain::assignments read_client_assignments(soci::session& sql, int64_t tenant_id,
                                            int64_t client_id);

// What the client's users may name in its campaigns: its assignments and
// its configurations' voice providers.
domain::client_resources read_client_resources(soci::session& sql, int64_t tenant_id,
                                               int64_t client_id);

// Adds a "Campaign not found" error under `field` for each id that is not
// one of the tenant's campaigns, in the order given, in one statement.
void check_campaigns(soci::session& sql, int64_t tenant_id,
                     const std::vector<int64_t>& campaign_ids, domain::field_errors& errors,
                     const std::string& field = "assigned_resources.campaign");

// Stores a set's assignments for a configuration that has none, each kind's
// ids at their positions in order.
void insert_assignments(soci::session& sql, int64_t tenant_id, int64_t config_id,
                        const domain::assignments& set);

// Replaces the configuration's whole set atomically (the configuration row
// is locked for the transaction); campaign ids must be the tenant's, else
// the spec's validation error. A `holder` held to some campaigns may not
// remove a campaign outside them (403).
domain::result<domain::assignments> replace_assignments(soci::session& sql, int64_t tenant_id,
                                                        int64_t config_id,
                                                        const domain::assignments& set,
                                                        const std::vector<int64_t>& campaign_ids,
                                                        const domain::key_scope& holder);

} // namespace vcs::storage
