#include "storage/assignment_repository.hpp"

#include "domain/global_id.hpp"
#include "domain/permission.hpp"
#include "storage/prepared.hpp"

#include <algorithm>

namespace vcs::storage {

namespace {

constexpr prepared_statement exists_stmt{
    "vcs_account_configuration_exists",
    "SELECT count(*) FROM account_configurations WHERE tenant_id = $1 AND id = $2"};
constexpr prepared_statement lock_stmt{
    "vcs_lock_account_configuration",
    "SELECT id FROM account_configurations WHERE tenant_id = $1 AND id = $2 FOR UPDATE"};
constexpr prepared_statement read_stmt{
    "vcs_read_assignments",
    "SELECT resource_kind, resource_id FROM assigned_resources "
    "WHERE tenant_id = $1 AND account_configuration_id = $2 ORDER BY resource_kind, position"};
// Every configuration of the client, each id once (its first position).
constexpr prepared_statement client_read_stmt{
    "vcs_read_client_assignments",
    "SELECT r.resource_kind, r.resource_id FROM assigned_resources r JOIN account_configurations g "
    "ON g.tenant_id = r.tenant_id AND g.id = r.account_configuration_id "
    "WHERE g.tenant_id = $1 AND g.client_id = $2 "
    "GROUP BY r.resource_kind, r.resource_id ORDER BY r.resource_kind, min(g.id), min(r.position)"};
constexpr prepared_statement delete_stmt{
    "vcs_delete_assignments",
    "DELETE FROM assigned_resources WHERE tenant_id = $1 AND account_configuration_id = $2"};
// Every assignment of a set in one statement: up to 1,000 ids per kind
// (domain::assigned_ids_max), so not a round trip each.
constexpr prepared_statement insert_stmt{
    "vcs_insert_assignments",
    "INSERT INTO assigned_resources (tenant_id, account_configuration_id, resource_kind, "
    "resource_id, position) SELECT $1, $2, i.kind, i.id, i.position "
    "FROM unnest($3::text[], $4::text[], $5::bigint[]) AS i(kind, id, position)"};
// The ids that are not the tenant's campaigns, in the order given.
constexpr prepared_statement missing_campaigns_stmt{
    "vcs_missing_campaigns",
    "SELECT i.id FROM unnest($2::bigint[]) WITH ORDINALITY AS i(id, ord) "
    "WHERE NOT EXISTS (SELECT 1 FROM campaigns c WHERE c.tenant_id = $1 AND c.id = i.id) "
    "ORDER BY i.ord"};

constexpr prepared_statement client_providers_stmt{
    "vcs_client_voice_providers",
    "SELECT DISTINCT voice_provider_id FROM account_configurations "
    "WHERE tenant_id = $1 AND client_id = $2 AND voice_provider_id IS NOT NULL"};

constexpr prepared_statement assigned_campaigns_stmt{
    "vcs_assigned_campaigns", "SELECT resource_id FROM assigned_resources WHERE tenant_id = $1 "
                              "AND account_configuration_id = $2 AND resource_kind = 'campaign'"};

} // namespace

void check_campaigns(soci::session& sql, int64_t tenant_id,
                     const std::vector<int64_t>& campaign_ids, domain::field_errors& errors,
                     const std::string& field) {
  if (campaign_ids.empty())
    return;
  auto rows = execute(sql, missing_campaigns_stmt, {tenant_id, campaign_ids});
  for (int i = 0; i < rows.size(); ++i)
    errors.add(field, "Campaign not found: " +
                          domain::encode_global_id(domain::entity::campaign, rows.int64(i, 0)));
}

void insert_assignments(soci::session& sql, int64_t tenant_id, int64_t config_id,
                        const domain::assignments& set) {
  std::vector<std::string> kinds;
  std::vector<std::string> ids;
  std::vector<int64_t> positions;
  for (const auto& [kind, kind_ids] : set)
    for (std::size_t i = 0; i < kind_ids.size(); ++i) {
      kinds.push_back(kind);
      ids.push_back(kind_ids[i]);
      positions.push_back(static_cast<int64_t>(i));
    }
  if (!ids.empty())
    execute(sql, insert_stmt, {tenant_id, config_id, kinds, ids, positions});
}

bool account_configuration_exists(soci::session& sql, int64_t tenant_id, int64_t config_id) {
  return execute(sql, exists_stmt, {tenant_id, config_id}).int64(0, 0) > 0;
}

namespace {

// Rows of (kind, id) by kind, every kind listed.
domain::assignments by_kind(const pg_rows& rows) {
  domain::assignments out;
  for (const auto& kind : domain::resource_kinds())
    out.emplace_back(kind, std::vector<std::string>{});
  for (int i = 0; i < rows.size(); ++i) {
    auto kind = rows.text(i, 0);
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == kind; });
    if (it != out.end())
      it->second.emplace_back(rows.text(i, 1));
  }
  return out;
}

} // namespace

domain::assignments read_assignments(soci::session& sql, int64_t tenant_id, int64_t config_id) {
  return by_kind(execute(sql, read_stmt, {tenant_id, config_id}));
}

domain::assignments read_client_assignments(soci::session& sql, int64_t tenant_id,
                                            int64_t client_id) {
  return by_kind(execute(sql, client_read_stmt, {tenant_id, client_id}));
}

domain::result<domain::assignments> replace_assignments(soci::session& sql, int64_t tenant_id,
                                                        int64_t config_id,
                                                        const domain::assignments& set,
                                                        const std::vector<int64_t>& campaign_ids,
                                                        const domain::key_scope& holder) {
  if (execute(sql, lock_stmt, {tenant_id, config_id}).size() == 0)
    return domain::not_found("Client account configuration not found");
  // A replacement also takes away: a key held to some campaigns may not
  // take away one it does not reach.
  if (holder.campaigns) {
    auto rows = execute(sql, assigned_campaigns_stmt, {tenant_id, config_id});
    for (int i = 0; i < rows.size(); ++i)
      if (auto id = domain::parse_id(domain::entity::campaign, rows.text(i, 0));
          id && !holder.reaches_campaign(*id))
        return domain::campaign_out_of_scope();
  }
  domain::field_errors errors;
  check_campaigns(sql, tenant_id, campaign_ids, errors);
  if (!errors.empty())
    return domain::invalid_data(std::move(errors));
  execute(sql, delete_stmt, {tenant_id, config_id});
  insert_assignments(sql, tenant_id, config_id, set);
  return read_assignments(sql, tenant_id, config_id);
}

domain::client_resources read_client_resources(soci::session& sql, int64_t tenant_id,
                                               int64_t client_id) {
  domain::client_resources r;
  r.assigned = read_client_assignments(sql, tenant_id, client_id);
  auto rows = execute(sql, client_providers_stmt, {tenant_id, client_id});
  for (int i = 0; i < rows.size(); ++i)
    r.voice_provider_ids.push_back(rows.int64(i, 0));
  return r;
}

} // namespace vcs::storage
