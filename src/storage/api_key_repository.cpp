#include "storage/api_key_repository.hpp"

#include "storage/prepared.hpp"

#include <soci/soci.h>

#include <stdexcept>

namespace vcs::storage {

namespace {

constexpr const char* key_columns = "id, tenant_id, name, masked_key, status, created_at";

const std::string insert_sql =
    std::string{"INSERT INTO api_keys (tenant_id, name, key_hash, masked_key) "
                "VALUES (:t, :n, :h, :m) RETURNING "} +
    key_columns;

const std::string list_sql =
    std::string{"SELECT "} + key_columns + " FROM api_keys WHERE tenant_id = :t ORDER BY id";

const std::string find_sql = std::string{"SELECT "} + key_columns + " FROM api_keys WHERE id = :id";

const std::string set_status_sql =
    std::string{"UPDATE api_keys SET status = :s, updated_at = now() "
                "WHERE tenant_id = :t AND id = :id RETURNING "} +
    key_columns;

constexpr const char* delete_sql = "DELETE FROM api_keys WHERE tenant_id = :t AND id = :id";

constexpr prepared_statement principal_stmt{
    "vcs_principal", "SELECT k.id, k.status, t.id, t.plan, t.active "
                     "FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.key_hash = $1"};

struct key_columns_out {
  domain::api_key_info value;
  std::string status, created_at;

  void bind(soci::details::prepare_temp_type& st) {
    st, soci::into(value.id), soci::into(value.tenant_id), soci::into(value.name),
        soci::into(value.masked_key), soci::into(status), soci::into(created_at);
  }

  domain::api_key_info finish() {
    auto s = domain::parse_api_key_status(status);
    auto c = domain::parse_pg_timestamp(created_at);
    if (!s || !c)
      throw std::runtime_error("unreadable api key row");
    value.status = *s;
    value.created_at = *c;
    return value;
  }
};

} // namespace

domain::api_key_info insert_api_key(soci::session& sql, int64_t tenant_id, const std::string& name,
                                    const std::string& key_hash, const std::string& masked_key) {
  key_columns_out out;
  auto prep = (sql.prepare << insert_sql, soci::use(tenant_id), soci::use(name),
               soci::use(key_hash), soci::use(masked_key));
  out.bind(prep);
  soci::statement st{prep};
  st.execute(true);
  return out.finish();
}

std::vector<domain::api_key_info> list_api_keys(soci::session& sql, int64_t tenant_id) {
  std::vector<domain::api_key_info> keys;
  key_columns_out out;
  auto prep = (sql.prepare << list_sql, soci::use(tenant_id));
  out.bind(prep);
  soci::statement st{prep};
  st.execute();
  while (st.fetch())
    keys.push_back(out.finish());
  return keys;
}

std::optional<domain::api_key_info> find_api_key(soci::session& sql, int64_t key_id) {
  key_columns_out out;
  auto prep = (sql.prepare << find_sql, soci::use(key_id));
  out.bind(prep);
  soci::statement st{prep};
  if (!st.execute(true))
    return std::nullopt;
  return out.finish();
}

std::optional<domain::api_key_info> set_api_key_status(soci::session& sql, int64_t tenant_id,
                                                       int64_t key_id,
                                                       domain::api_key_status status) {
  key_columns_out out;
  std::string status_text{domain::to_string(status)};
  auto prep = (sql.prepare << set_status_sql, soci::use(status_text), soci::use(tenant_id),
               soci::use(key_id));
  out.bind(prep);
  soci::statement st{prep};
  if (!st.execute(true))
    return std::nullopt;
  return out.finish();
}

bool delete_api_key(soci::session& sql, int64_t tenant_id, int64_t key_id) {
  soci::statement st = (sql.prepare << delete_sql, soci::use(tenant_id), soci::use(key_id));
  st.execute(true);
  return st.get_affected_rows() > 0;
}

std::optional<domain::principal> find_principal(soci::session& sql, const std::string& key_hash) {
  auto rows = execute(sql, principal_stmt, {key_hash});
  if (rows.size() == 0)
    return std::nullopt;
  domain::principal p;
  p.key_id = rows.int64(0, 0);
  auto s = domain::parse_api_key_status(rows.text(0, 1));
  p.tenant_id = rows.int64(0, 2);
  auto pl = domain::parse_plan(rows.text(0, 3));
  if (!s || !pl)
    throw std::runtime_error("unreadable principal row");
  p.key_status = *s;
  p.plan = *pl;
  p.tenant_active = rows.boolean(0, 4);
  return p;
}

} // namespace vcs::storage
