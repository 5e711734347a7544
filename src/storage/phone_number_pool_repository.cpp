#include "storage/phone_number_pool_repository.hpp"

#include "domain/campaign_errors.hpp"
#include "domain/global_id.hpp"
#include "storage/page_rows.hpp"
#include "storage/prepared.hpp"

#include <soci/soci.h>

namespace vcs::storage {

namespace {

#define POOL_COLUMNS "p.id, p.name, p.daily_cap_per_number, p.timezone, p.created_at, p.updated_at"

constexpr prepared_statement lock_tenant_stmt{
    "vcs_pool_lock_tenant",
    "SELECT count(p.id) FROM (SELECT id FROM tenants WHERE id = $1 FOR NO KEY UPDATE) t "
    "LEFT JOIN phone_number_pools p ON p.tenant_id = t.id"};

constexpr prepared_statement insert_stmt{
    "vcs_insert_pool",
    "INSERT INTO phone_number_pools AS p (tenant_id, name, daily_cap_per_number, timezone) "
    "VALUES ($1, $2, $3::int, $4) RETURNING " POOL_COLUMNS};

// Numbers $3 (in their order) of pool $2: new ones are added, kept ones
// keep their calls today.
constexpr prepared_statement put_numbers_stmt{
    "vcs_put_pool_numbers",
    "INSERT INTO phone_number_pool_numbers (tenant_id, pool_id, position, phone_number_id) "
    "SELECT $1, $2, u.ord::int, u.id FROM unnest($3::text[]) WITH ORDINALITY u(id, ord) "
    "ON CONFLICT (pool_id, phone_number_id) DO UPDATE SET position = excluded.position"};

constexpr prepared_statement drop_numbers_stmt{
    "vcs_drop_pool_numbers", "DELETE FROM phone_number_pool_numbers WHERE pool_id = $1 "
                             "AND NOT (phone_number_id = ANY($2::text[]))"};

constexpr prepared_statement count_stmt{
    "vcs_count_pools", "SELECT count(*) FROM phone_number_pools WHERE tenant_id = $1"};

constexpr prepared_statement page_stmt{
    "vcs_page_pools", "SELECT " POOL_COLUMNS " FROM phone_number_pools p WHERE p.tenant_id = $1 "
                      "ORDER BY p.id LIMIT $2::bigint OFFSET $3::bigint"};

constexpr prepared_statement find_stmt{
    "vcs_find_pool",
    "SELECT " POOL_COLUMNS " FROM phone_number_pools p WHERE p.tenant_id = $1 AND p.id = $2"};

constexpr prepared_statement lock_stmt{"vcs_lock_pool",
                                       "SELECT " POOL_COLUMNS " FROM phone_number_pools p "
                                       "WHERE p.tenant_id = $1 AND p.id = $2 FOR NO KEY UPDATE"};

constexpr prepared_statement lock_to_delete_stmt{
    "vcs_lock_pool_to_delete",
    "SELECT 1 FROM phone_number_pools WHERE tenant_id = $1 AND id = $2 FOR UPDATE"};

constexpr prepared_statement hold_stmt{
    "vcs_hold_pool",
    "SELECT 1 FROM phone_number_pools WHERE tenant_id = $1 AND id = $2 FOR KEY SHARE"};

constexpr prepared_statement update_stmt{
    "vcs_update_pool", "UPDATE phone_number_pools AS p SET name = coalesce($3, p.name), "
                       "daily_cap_per_number = coalesce($4::int, p.daily_cap_per_number), "
                       "timezone = coalesce($5, p.timezone) WHERE p.tenant_id = $1 AND p.id = $2 "
                       "RETURNING " POOL_COLUMNS};

// The numbers of pools $2 in their order, with the day their count is of.
constexpr prepared_statement numbers_stmt{
    "vcs_pool_numbers",
    "SELECT pool_id, phone_number_id, use_day::text, calls_on_day FROM phone_number_pool_numbers "
    "WHERE tenant_id = $1 AND pool_id = ANY($2::bigint[]) ORDER BY pool_id, position"};

constexpr prepared_statement store_use_stmt{
    "vcs_store_pool_use",
    "UPDATE phone_number_pool_numbers n SET use_day = $2::date, calls_on_day = u.calls::int "
    "FROM unnest($3::text[], $4::bigint[]) u(id, calls) "
    "WHERE n.pool_id = $1 AND n.phone_number_id = u.id"};

#undef POOL_COLUMNS

constexpr prepared_statement in_use_stmt{"vcs_pool_in_use",
                                         "SELECT count(*) FROM campaigns WHERE tenant_id = $1 "
                                         "AND phone_number_pool_id = $2 AND status <> 'ENDED'"};

// The campaigns dialing from pool $2 look at it again.
constexpr prepared_statement wake_stmt{
    "vcs_pool_wake_campaigns",
    "UPDATE campaigns SET next_dial_at = now() WHERE tenant_id = $1 AND phone_number_pool_id = $2 "
    "AND status IN ('ACTIVE', 'SCHEDULED')"};

constexpr prepared_statement delete_stmt{
    "vcs_delete_pool", "DELETE FROM phone_number_pools WHERE tenant_id = $1 AND id = $2"};

constexpr prepared_statement last_numbers_stmt{
    "vcs_last_caller_numbers",
    "SELECT DISTINCT ON (lead_id) lead_id, phone_number_id FROM calls "
    "WHERE tenant_id = $1 AND lead_id = ANY($2::bigint[]) ORDER BY lead_id, id DESC"};

domain::phone_number_pool pool_of(const pg_rows& rows, int i) {
  domain::phone_number_pool p;
  p.id = rows.int64(i, 0);
  p.name = std::string{rows.text(i, 1)};
  p.daily_cap_per_number = rows.int32(i, 2);
  p.timezone = std::string{rows.text(i, 3)};
  p.created_at = rows.timestamp(i, 4);
  p.updated_at = rows.timestamp(i, 5);
  return p;
}

// Fills each pool's numbers with their calls today: a count of another
// day than the pool's current one is 0.
void read_numbers(soci::session& sql, int64_t tenant_id,
                  std::vector<domain::phone_number_pool>& pools, domain::timestamp now) {
  if (pools.empty())
    return;
  std::vector<int64_t> ids;
  std::map<int64_t, std::pair<domain::phone_number_pool*, std::string>> by_id;
  for (auto& p : pools) {
    ids.push_back(p.id);
    by_id[p.id] = {&p, domain::pool_day(p, now)};
  }
  auto rows = execute(sql, numbers_stmt, {tenant_id, ids});
  for (int i = 0; i < rows.size(); ++i) {
    auto& [pool, today] = by_id[rows.int64(i, 0)];
    const bool counted_today = !rows.is_null(i, 2) && rows.text(i, 2) == today;
    pool->numbers.push_back({std::string{rows.text(i, 1)}, counted_today ? rows.int32(i, 3) : 0});
  }
}

std::optional<domain::phone_number_pool> one_pool(soci::session& sql, int64_t tenant_id,
                                                  pg_rows rows, domain::timestamp now) {
  if (rows.size() == 0)
    return std::nullopt;
  std::vector<domain::phone_number_pool> pools{pool_of(rows, 0)};
  read_numbers(sql, tenant_id, pools, now);
  return std::move(pools.front());
}

void put_numbers(soci::session& sql, int64_t tenant_id, int64_t pool_id,
                 const std::vector<std::string>& ids) {
  execute(sql, drop_numbers_stmt, {pool_id, ids});
  execute(sql, put_numbers_stmt, {tenant_id, pool_id, ids});
}

} // namespace

std::optional<domain::phone_number_pool> insert_pool(soci::session& sql, int64_t tenant_id,
                                                     const domain::pool_fields& f,
                                                     domain::timestamp now) {
  soci::transaction tx{sql};
  if (execute(sql, lock_tenant_stmt, {tenant_id}).int64(0, 0) >= max_pools_per_tenant)
    return std::nullopt;
  auto rows =
      execute(sql, insert_stmt,
              {tenant_id, *f.name, f.daily_cap_per_number.value_or(domain::pool_daily_cap_default),
               f.timezone.value_or("UTC")});
  const auto id = rows.int64(0, 0);
  put_numbers(sql, tenant_id, id, *f.phone_number_ids);
  auto pool = one_pool(sql, tenant_id, std::move(rows), now);
  tx.commit();
  return pool;
}

page_of<domain::phone_number_pool> list_pools(soci::session& sql, int64_t tenant_id,
                                              const page_request& page, domain::timestamp now) {
  auto out =
      page_from(execute(sql, count_stmt, {tenant_id}),
                execute(sql, page_stmt, {tenant_id, page.page_size, offset_of(page)}), pool_of);
  read_numbers(sql, tenant_id, out.items, now);
  return out;
}

std::optional<domain::phone_number_pool> find_pool(soci::session& sql, int64_t tenant_id,
                                                   int64_t pool_id, domain::timestamp now) {
  return one_pool(sql, tenant_id, execute(sql, find_stmt, {tenant_id, pool_id}), now);
}

std::optional<domain::phone_number_pool> update_pool(soci::session& sql, int64_t tenant_id,
                                                     int64_t pool_id, const domain::pool_fields& f,
                                                     domain::timestamp now) {
  soci::transaction tx{sql};
  // The campaigns' rows first, as a dial pass locks a campaign before its
  // pool: one that read the old pool has ended, and the others look again.
  execute(sql, wake_stmt,
          {tenant_id, domain::encode_global_id(domain::entity::phone_number_pool, pool_id)});
  auto rows =
      execute(sql, update_stmt, {tenant_id, pool_id, f.name, f.daily_cap_per_number, f.timezone});
  if (rows.size() == 0)
    return std::nullopt;
  if (f.phone_number_ids)
    put_numbers(sql, tenant_id, pool_id, *f.phone_number_ids);
  auto pool = one_pool(sql, tenant_id, std::move(rows), now);
  tx.commit();
  return pool;
}

pool_removal delete_pool(soci::session& sql, int64_t tenant_id, int64_t pool_id) {
  soci::transaction tx{sql};
  // FOR UPDATE waits for a campaign being saved with this pool (hold_pool),
  // so the count below sees it.
  if (execute(sql, lock_to_delete_stmt, {tenant_id, pool_id}).size() == 0)
    return pool_removal::not_found;
  const auto global_id = domain::encode_global_id(domain::entity::phone_number_pool, pool_id);
  if (execute(sql, in_use_stmt, {tenant_id, global_id}).int64(0, 0) > 0)
    return pool_removal::in_use;
  execute(sql, delete_stmt, {tenant_id, pool_id});
  tx.commit();
  return pool_removal::removed;
}

bool hold_pool(soci::session& sql, int64_t tenant_id, int64_t pool_id) {
  return execute(sql, hold_stmt, {tenant_id, pool_id}).size() > 0;
}

std::optional<domain::error> hold_named_pool(soci::session& sql, int64_t tenant_id,
                                             const domain::campaign_fields& f) {
  if (!f.phone_number_pool_id)
    return std::nullopt;
  const auto id =
      domain::decode_global_id(domain::entity::phone_number_pool, *f.phone_number_pool_id);
  if (id && hold_pool(sql, tenant_id, *id))
    return std::nullopt;
  return domain::campaign_pool_not_found(*f.phone_number_pool_id);
}

std::optional<domain::phone_number_pool> lock_pool(soci::session& sql, int64_t tenant_id,
                                                   int64_t pool_id, domain::timestamp now) {
  return one_pool(sql, tenant_id, execute(sql, lock_stmt, {tenant_id, pool_id}), now);
}

void store_pool_use(soci::session& sql, const domain::phone_number_pool& pool,
                    domain::timestamp now) {
  std::vector<std::string> ids;
  std::vector<int64_t> calls;
  for (const auto& n : pool.numbers) {
    ids.push_back(n.phone_number_id);
    calls.push_back(n.calls_today);
  }
  execute(sql, store_use_stmt, {pool.id, domain::pool_day(pool, now), ids, calls});
}

std::map<int64_t, std::string> last_caller_numbers(soci::session& sql, int64_t tenant_id,
                                                   const std::vector<int64_t>& lead_ids) {
  std::map<int64_t, std::string> out;
  if (lead_ids.empty())
    return out;
  auto rows = execute(sql, last_numbers_stmt, {tenant_id, lead_ids});
  for (int i = 0; i < rows.size(); ++i)
    if (!rows.is_null(i, 1))
      out.emplace(rows.int64(i, 0), std::string{rows.text(i, 1)});
  return out;
}

} // namespace vcs::storage
