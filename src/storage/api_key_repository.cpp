#include "storage/api_key_repository.hpp"

#include "storage/page_rows.hpp"
#include "storage/prepared.hpp"

#include <stdexcept>

namespace vcs::storage {

namespace {

// The columns of a key, read by key_of.
#define KEY_COLUMNS                                                                                \
  "id, tenant_id, name, masked_key, status, created_at, permissions, campaign_ids::text[], "       \
  "expires_at, last_used_at"

namespace key_col {
enum : int {
  id,
  tenant_id,
  name,
  masked_key,
  status,
  created_at,
  permissions,
  campaigns,
  expires_at,
  last_used_at
};
} // namespace key_col

constexpr prepared_statement insert_stmt{
    "vcs_insert_api_key",
    "INSERT INTO api_keys (tenant_id, name, key_hash, masked_key, permissions, campaign_ids, "
    "expires_at) VALUES ($1, $2, $3, $4, $5::text[], $6::bigint[], $7) RETURNING " KEY_COLUMNS};

constexpr prepared_statement list_stmt{
    "vcs_list_api_keys", "SELECT " KEY_COLUMNS " FROM api_keys WHERE tenant_id = $1 ORDER BY id"};

constexpr prepared_statement page_stmt{"vcs_page_api_keys",
                                       "SELECT " KEY_COLUMNS " FROM api_keys WHERE tenant_id = $1 "
                                       "ORDER BY id LIMIT $2 OFFSET $3"};

constexpr prepared_statement count_stmt{"vcs_count_api_keys",
                                        "SELECT count(*) FROM api_keys WHERE tenant_id = $1"};

constexpr prepared_statement count_locked_stmt{
    "vcs_count_api_keys_locked", "WITH t AS (SELECT id FROM tenants WHERE id = $1 FOR UPDATE) "
                                 "SELECT count(*) FROM api_keys k JOIN t ON k.tenant_id = t.id"};

constexpr prepared_statement find_stmt{"vcs_find_api_key",
                                       "SELECT " KEY_COLUMNS " FROM api_keys WHERE id = $1"};

constexpr prepared_statement find_own_stmt{
    "vcs_find_own_api_key",
    "SELECT " KEY_COLUMNS " FROM api_keys WHERE tenant_id = $1 AND id = $2 FOR UPDATE"};

constexpr prepared_statement set_status_stmt{
    "vcs_set_api_key_status", "UPDATE api_keys SET status = $3, updated_at = now() "
                              "WHERE tenant_id = $1 AND id = $2 RETURNING " KEY_COLUMNS};
#undef KEY_COLUMNS

constexpr prepared_statement delete_stmt{"vcs_delete_api_key",
                                         "DELETE FROM api_keys WHERE tenant_id = $1 AND id = $2"};

// The key and its tenant; the key's last use is written in the same round
// trip, at most once a minute (a WITH that changes rows runs whether or not
// it is read).
#define PRINCIPAL_FROM                                                                             \
  "WITH k AS (SELECT * FROM api_keys WHERE key_hash = $1), "                                       \
  "used AS (UPDATE api_keys a SET last_used_at = now() FROM k WHERE a.id = k.id "                  \
  "AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute')) "                 \
  "SELECT k.id, k.status, t.id, t.plan, t.active, k.permissions, k.campaign_ids::text[], "         \
  "k.expires_at, coalesce(k.expires_at <= now(), false)"
constexpr prepared_statement principal_stmt{"vcs_principal", PRINCIPAL_FROM
                                            " FROM k JOIN tenants t ON t.id = k.tenant_id"};

// The principal's columns first, as in principal_stmt (principal_of).
constexpr prepared_statement principal_campaign_stmt{
    "vcs_principal_campaign",
    PRINCIPAL_FROM ", c.leads_version FROM k "
                   "JOIN tenants t ON t.id = k.tenant_id "
                   "LEFT JOIN campaigns c ON c.tenant_id = t.id AND c.id = $2"};
#undef PRINCIPAL_FROM
constexpr int principal_columns = 9;

// Names stored for a scope's permissions: NULL for all of them.
std::optional<std::vector<std::string>> stored_permissions(const domain::permission_set& s) {
  if (s == domain::permission_set::all())
    return std::nullopt;
  std::vector<std::string> out;
  for (auto name : s.names())
    out.emplace_back(name);
  return out;
}

domain::key_scope scope_of(const pg_rows& rows, int i, int permissions, int campaigns,
                           int expires_at) {
  domain::key_scope scope;
  if (!rows.is_null(i, permissions)) {
    scope.permissions = {};
    for (const auto& name : rows.text_array(i, permissions))
      if (auto p = domain::parse_permission(name))
        scope.permissions.add(*p);
  }
  if (!rows.is_null(i, campaigns)) {
    scope.campaigns.emplace();
    for (const auto& id : rows.text_array(i, campaigns))
      scope.campaigns->push_back(std::stoll(id));
  }
  scope.expires_at = rows.opt_timestamp(i, expires_at);
  return scope;
}

domain::api_key_info key_of(const pg_rows& rows, int i) {
  domain::api_key_info k;
  k.id = rows.int64(i, key_col::id);
  k.tenant_id = rows.int64(i, key_col::tenant_id);
  k.name = rows.text(i, key_col::name);
  k.masked_key = rows.text(i, key_col::masked_key);
  k.status = rows.parsed(i, key_col::status, domain::parse_api_key_status);
  k.created_at = rows.timestamp(i, key_col::created_at);
  k.scope = scope_of(rows, i, key_col::permissions, key_col::campaigns, key_col::expires_at);
  k.last_used_at = rows.opt_timestamp(i, key_col::last_used_at);
  return k;
}

domain::principal principal_of(const pg_rows& rows) {
  domain::principal p;
  p.key_id = rows.int64(0, 0);
  p.key_status = rows.parsed(0, 1, domain::parse_api_key_status);
  p.tenant_id = rows.int64(0, 2);
  p.plan = rows.parsed(0, 3, domain::parse_plan);
  p.tenant_active = rows.boolean(0, 4);
  p.scope = scope_of(rows, 0, 5, 6, 7);
  p.key_expired = rows.boolean(0, 8);
  return p;
}

} // namespace

domain::api_key_info insert_api_key(soci::session& sql, int64_t tenant_id, const std::string& name,
                                    const std::string& key_hash, const std::string& masked_key,
                                    const domain::key_scope& scope) {
  auto rows = execute(sql, insert_stmt,
                      {tenant_id, name, key_hash, masked_key, stored_permissions(scope.permissions),
                       scope.campaigns, scope.expires_at});
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

page_of<domain::api_key_info> page_api_keys(soci::session& sql, int64_t tenant_id,
                                            const page_request& page) {
  auto total = execute(sql, count_stmt, {tenant_id});
  auto rows = execute(sql, page_stmt, {tenant_id, page.page_size, offset_of(page)});
  return page_from(total, rows, key_of);
}

int64_t count_api_keys_locked(soci::session& sql, int64_t tenant_id) {
  return execute(sql, count_locked_stmt, {tenant_id}).int64(0, 0);
}

std::optional<domain::api_key_info> find_api_key(soci::session& sql, int64_t key_id) {
  auto rows = execute(sql, find_stmt, {key_id});
  if (rows.size() == 0)
    return std::nullopt;
  return key_of(rows, 0);
}

std::optional<domain::api_key_info> lock_api_key(soci::session& sql, int64_t tenant_id,
                                                 int64_t key_id) {
  auto rows = execute(sql, find_own_stmt, {tenant_id, key_id});
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
  return principal_and_campaign{principal_of(rows), rows.opt_int64(0, principal_columns)};
}

} // namespace vcs::storage
