#include "storage/assignment_repository.hpp"

#include "domain/global_id.hpp"
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
constexpr prepared_statement delete_stmt{
    "vcs_delete_assignments",
    "DELETE FROM assigned_resources WHERE tenant_id = $1 AND account_configuration_id = $2"};
constexpr prepared_statement insert_stmt{
    "vcs_insert_assignment",
    "INSERT INTO assigned_resources (tenant_id, account_configuration_id, resource_kind, "
    "resource_id, position) VALUES ($1, $2, $3, $4, $5)"};
constexpr prepared_statement campaign_exists_stmt{
    "vcs_assigned_campaign_exists",
    "SELECT count(*) FROM campaigns WHERE tenant_id = $1 AND id = $2"};

} // namespace

bool account_configuration_exists(soci::session& sql, int64_t tenant_id, int64_t config_id) {
  return execute(sql, exists_stmt, {tenant_id, config_id}).int64(0, 0) > 0;
}

domain::assignments read_assignments(soci::session& sql, int64_t tenant_id, int64_t config_id) {
  domain::assignments out;
  for (const auto& kind : domain::resource_kinds())
    out.emplace_back(kind, std::vector<std::string>{});
  auto rows = execute(sql, read_stmt, {tenant_id, config_id});
  for (int i = 0; i < rows.size(); ++i) {
    auto kind = rows.text(i, 0);
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == kind; });
    if (it != out.end())
      it->second.emplace_back(rows.text(i, 1));
  }
  return out;
}

domain::result<domain::assignments> replace_assignments(soci::session& sql, int64_t tenant_id,
                                                        int64_t config_id,
                                                        const domain::assignments& set,
                                                        const std::vector<int64_t>& campaign_ids) {
  if (execute(sql, lock_stmt, {tenant_id, config_id}).size() == 0)
    return domain::not_found("Client account configuration not found");
  domain::field_errors errors;
  for (auto id : campaign_ids)
    if (execute(sql, campaign_exists_stmt, {tenant_id, id}).int64(0, 0) == 0)
      errors.add("assigned_resources.campaign",
                 "Campaign not found: " + domain::encode_global_id(domain::entity::campaign, id));
  if (!errors.empty())
    return domain::invalid_data(std::move(errors));
  execute(sql, delete_stmt, {tenant_id, config_id});
  for (const auto& [kind, ids] : set)
    for (std::size_t i = 0; i < ids.size(); ++i)
      execute(sql, insert_stmt, {tenant_id, config_id, kind, ids[i], static_cast<int32_t>(i)});
  return read_assignments(sql, tenant_id, config_id);
}

} // namespace vcs::storage
