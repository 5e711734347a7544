#include "storage/assignment_repository.hpp"

#include "domain/global_id.hpp"
#include "storage/storage_error.hpp"

#include <soci/soci.h>

#include <algorithm>

namespace vcs::storage {

namespace {

constexpr const char* exists_sql =
    "SELECT count(*) FROM account_configurations WHERE tenant_id = :t AND id = :a";
constexpr const char* lock_sql =
    "SELECT id FROM account_configurations WHERE tenant_id = :t AND id = :a FOR UPDATE";
constexpr const char* read_sql =
    "SELECT resource_kind, resource_id FROM assigned_resources "
    "WHERE tenant_id = :t AND account_configuration_id = :a ORDER BY resource_kind, position";
constexpr const char* delete_sql =
    "DELETE FROM assigned_resources WHERE tenant_id = :t AND account_configuration_id = :a";
constexpr const char* insert_sql =
    "INSERT INTO assigned_resources (tenant_id, account_configuration_id, resource_kind, "
    "resource_id, position) VALUES (:t, :a, :k, :r, :p)";
constexpr const char* campaign_exists_sql =
    "SELECT count(*) FROM campaigns WHERE tenant_id = :t AND id = :c";

} // namespace

bool account_configuration_exists(soci::session& sql, int64_t tenant_id, int64_t config_id) {
  long long n = 0;
  sql << exists_sql, soci::use(tenant_id), soci::use(config_id), soci::into(n);
  return n > 0;
}

domain::assignments read_assignments(soci::session& sql, int64_t tenant_id, int64_t config_id) {
  domain::assignments out;
  for (const auto& kind : domain::resource_kinds())
    out.emplace_back(kind, std::vector<std::string>{});
  std::string kind, id;
  soci::statement st = (sql.prepare << read_sql, soci::use(tenant_id), soci::use(config_id),
                        soci::into(kind), soci::into(id));
  st.execute();
  while (st.fetch()) {
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == kind; });
    if (it != out.end())
      it->second.push_back(id);
  }
  return out;
}

domain::assignments replace_assignments(soci::session& sql, int64_t tenant_id, int64_t config_id,
                                        const domain::assignments& set,
                                        const std::vector<int64_t>& campaign_ids) {
  int64_t locked = 0;
  soci::statement lock =
      (sql.prepare << lock_sql, soci::use(tenant_id), soci::use(config_id), soci::into(locked));
  if (!lock.execute(true))
    throw failure(domain::not_found("Client account configuration not found"));
  domain::field_errors errors;
  for (auto id : campaign_ids) {
    long long n = 0;
    sql << campaign_exists_sql, soci::use(tenant_id), soci::use(id), soci::into(n);
    if (n == 0)
      errors.add("assigned_resources.campaign",
                 "Campaign not found: " + domain::encode_global_id(domain::entity::campaign, id));
  }
  if (!errors.empty())
    throw failure(domain::invalid_data(std::move(errors)));
  sql << delete_sql, soci::use(tenant_id), soci::use(config_id);
  for (const auto& [kind, ids] : set)
    for (std::size_t i = 0; i < ids.size(); ++i) {
      int position = static_cast<int>(i);
      sql << insert_sql, soci::use(tenant_id), soci::use(config_id), soci::use(kind),
          soci::use(ids[i]), soci::use(position);
    }
  return read_assignments(sql, tenant_id, config_id);
}

} // namespace vcs::storage
