#include "storage/api_key_repository.hpp"

#include "storage/prepared.hpp"

#include <stdexcept>

namespace vcs::storage {

namespace {

// The columns of a key, read by key_of.
#define KEY_COLUMNS "id, tenant_id, name, masked_key, status, created_at"

namespace key_col {
enum : int { id, tenant_id, name, masked_key, status, created_at };
} // namespace key_col

constexpr prepared_statement insert_stmt{
    "vcs_insert_api_key", "INSERT INTO api_keys (tenant_id, name, key_hash, masked_key) "
                          "VALUES ($1, $2, $3, $4) RETURNING " KEY_COLUMNS};

constexpr prepared_statement list_stmt{
    "vcs_list_api_keys", "SELECT " KEY_COLUMNS " FROM api_keys WHERE tenant_id = $1 ORDER BY id"};

constexpr prepared_statement find_stmt{"vcs_find_api_key",
                                       "SELECT " KEY_COLUMNS " FROM api_keys WHERE id = $1"};

constexpr prepared_statement set_status_stmt{
    "vcs_set_api_key_status", "UPDATE api_keys SET status = $3, updated_at = now() "
                              "WHERE tenant_id = $1 AND id = $2 RETURNING " KEY_COLUMNS};
#undef KEY_COLUMNS

constexpr prepared_statement delete_stmt{"vcs_delete_api_key",
                                         "DELETE FROM api_keys WHERE tenant_id = $1 AND id = $2"};

constexpr prepared_statement principal_stmt{
    "vcs_principal", "SELECT k.id, k.status, t.id, t.plan, t.active "
                     "FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.key_hash = $1"};

// The principal's columns first, as in principal_stmt (principal_of).
constexpr prepared_statement principal_campaign_stmt{
    "vcs_principal_campaign",
    "SELECT k.id, k.status, t.id, t.plan, t.active, c.leads_version FROM api_keys k "
    "JOIN tenants t ON t.id = k.tenant_id "
    "LEFT JOIN campaigns c ON c.tenant_id = t.id AND c.id = $2 WHERE k.key_hash = $1"};

domain::api_key_info key_of(const pg_rows& rows, int i) {
  domain::api_key_info k;
  k.id = rows.int64(i, key_col::id);
  k.tenant_id = rows.int64(i, key_col::tenant_id);
  k.name = rows.text(i, key_col::name);
  k.masked_key = rows.text(i, key_col::masked_key);
  k.status = rows.parsed(i, key_col::status, domain::parse_api_key_status);
  k.created_at = rows.timestamp(i, key_col::created_at);
  return k;
}

domain::principal principal_of(const pg_rows& rows) {
  domain::principal p;
  p.key_id = rows.int64(0, 0);
  p.key_status = rows.parsed(0, 1, domain::parse_api_key_status);
  p.tenant_id = rows.int64(0, 2);
  p.plan = rows.parsed(0, 3, domain::parse_plan);
  p.tenant_active = rows.boolean(0, 4);
  return p;
}

} // namespace

domain::api_key_info insert_api_key(soci::session& sql, int64_t tenant_id, const std::string& name,
                                    const std::string& key_hash, const std::string& masked_key) {
  auto rows = execute(sql, insert_stmt, {tenant_id, name, key_hash, masked_key});
  if (rows.size() == 0)
    throw std::runtime_error("api key insert returned no row");
  return key_of(rows, 0);
}

std::vector<domain::api_key_info> list_api_keys(soci::session& sql, int64_t tenant_id) {
  auto rows = execute(sql, list_stmt, {tenant_id});
  std::vector<domain::api_key_info> keys;
  keys.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i)
    keys.push_back(key_of(rows, i));
  return keys;
}

std::optional<domain::api_key_info> find_api_key(soci::session& sql, int64_t key_id) {
  auto rows = execute(sql, find_stmt, {key_id});
  if (rows.size() == 0)
    return std::nullopt;
  return key_of(rows, 0);
}

std::optional<domain::api_key_info> set_api_key_status(soci::session& sql, int64_t tenant_id,
                                                       int64_t key_id,
                                                       domain::api_key_status status) {
  auto rows = execute(sql, set_status_stmt, {tenant_id, key_id, domain::to_string(status)});
  if (rows.size() == 0)
    return std::nullopt;
  return key_of(rows, 0);
}

bool delete_api_key(soci::session& sql, int64_t tenant_id, int64_t key_id) {
  return execute(sql, delete_stmt, {tenant_id, key_id}).affected() > 0;
}

std::optional<domain::principal> find_principal(soci::session& sql, const std::string& key_hash) {
  auto rows = execute(sql, principal_stmt, {key_hash});
  if (rows.size() == 0)
    return std::nullopt;
  return principal_of(rows);
}

std::optional<principal_and_campaign>
find_principal(soci::session& sql, const std::string& key_hash, int64_t campaign_id) {
  auto rows = execute(sql, principal_campaign_stmt, {key_hash, campaign_id});
  if (rows.size() == 0)
    return std::nullopt;
  return principal_and_campaign{principal_of(rows), rows.opt_int64(0, 5)};
}

} // namespace vcs::storage
