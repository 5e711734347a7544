#include "storage/voice_provider_repository.hpp"

#include "domain/hex.hpp"
#include "storage/page_rows.hpp"
#include "storage/prepared.hpp"

#include <soci/soci.h>

namespace vcs::storage {

namespace {

constexpr prepared_statement lock_tenant_stmt{
    "vcs_voice_provider_lock_tenant",
    "SELECT count(v.id) FROM (SELECT id FROM tenants WHERE id = $1 FOR NO KEY UPDATE) t "
    "LEFT JOIN voice_providers v ON v.tenant_id = t.id"};

// bytea goes in as hex text: parameters are sent in text form.
constexpr prepared_statement insert_stmt{
    "vcs_insert_voice_provider",
    "INSERT INTO voice_providers (tenant_id, voice_provider, credentials_ciphertext, "
    "credentials_nonce, concurrency_limit) "
    "VALUES ($1, $2, decode($3, 'hex'), decode($4, 'hex'), $5) RETURNING id, created_at"};

constexpr prepared_statement hold_stmt{
    "vcs_hold_voice_provider",
    "SELECT 1 FROM voice_providers WHERE tenant_id = $1 AND id = $2 FOR KEY SHARE"};

#define VOICE_PROVIDER_COLUMNS                                                                     \
  "v.id, v.voice_provider, coalesce(v.concurrency_limit, 10), v.created_at, v.updated_at, "        \
  "encode(v.credentials_ciphertext, 'hex'), encode(v.credentials_nonce, 'hex'), "                  \
  "(SELECT count(*) FROM campaigns c WHERE c.tenant_id = v.tenant_id "                             \
  "AND c.voice_provider_id = v.id AND c.status <> 'ENDED')"

enum col { id, kind, limit, created_at, updated_at, ciphertext, nonce, in_use };

constexpr prepared_statement count_stmt{
    "vcs_count_voice_providers", "SELECT count(*) FROM voice_providers WHERE tenant_id = $1"};

constexpr prepared_statement page_stmt{"vcs_page_voice_providers",
                                       "SELECT " VOICE_PROVIDER_COLUMNS
                                       " FROM voice_providers v WHERE v.tenant_id = $1 "
                                       "ORDER BY v.id LIMIT $2::bigint OFFSET $3::bigint"};

constexpr prepared_statement find_stmt{
    "vcs_find_voice_provider", "SELECT " VOICE_PROVIDER_COLUMNS
                               " FROM voice_providers v WHERE v.tenant_id = $1 AND v.id = $2"};

constexpr prepared_statement lock_stmt{
    "vcs_lock_voice_provider",
    "SELECT " VOICE_PROVIDER_COLUMNS " FROM voice_providers v WHERE v.tenant_id = $1 AND v.id = $2 "
    "FOR NO KEY UPDATE"};

#undef VOICE_PROVIDER_COLUMNS

// The campaigns dialing through $2 look at it again (their lines, their
// credentials).
constexpr prepared_statement wake_stmt{
    "vcs_voice_provider_wake_campaigns",
    "UPDATE campaigns SET next_dial_at = now() WHERE tenant_id = $1 AND voice_provider_id = $2 "
    "AND status IN ('ACTIVE', 'SCHEDULED')"};

constexpr prepared_statement update_stmt{
    "vcs_update_voice_provider",
    "UPDATE voice_providers SET credentials_ciphertext = decode($3, 'hex'), "
    "credentials_nonce = decode($4, 'hex'), "
    "concurrency_limit = coalesce($5::int, concurrency_limit) "
    "WHERE tenant_id = $1 AND id = $2"};

constexpr prepared_statement lock_to_delete_stmt{
    "vcs_lock_voice_provider_to_delete",
    "SELECT 1 FROM voice_providers WHERE tenant_id = $1 AND id = $2 FOR UPDATE"};

constexpr prepared_statement campaigns_using_stmt{
    "vcs_voice_provider_campaigns_using",
    "SELECT count(*) FROM campaigns WHERE tenant_id = $1 AND voice_provider_id = $2 "
    "AND status <> 'ENDED'"};

// calls_open_idx: the calls still waiting for their end report.
constexpr prepared_statement open_calls_stmt{
    "vcs_voice_provider_open_calls",
    "SELECT count(*) FROM calls WHERE voice_provider_id = $1 AND ended_at IS NULL"};

constexpr prepared_statement delete_stmt{
    "vcs_delete_voice_provider", "DELETE FROM voice_providers WHERE tenant_id = $1 AND id = $2"};

stored_voice_provider stored_of(const pg_rows& rows, int i, int64_t tenant_id) {
  stored_voice_provider out;
  out.config.id = rows.int64(i, col::id);
  out.config.tenant_id = tenant_id;
  out.config.kind = rows.parsed(i, col::kind, domain::parse_voice_provider);
  out.config.concurrency_limit = rows.int32(i, col::limit);
  out.config.created_at = rows.timestamp(i, col::created_at);
  out.config.updated_at = rows.timestamp(i, col::updated_at);
  out.credentials = *rows.opt_sealed(i, col::ciphertext, col::nonce);
  out.campaigns_in_use = rows.int64(i, col::in_use);
  return out;
}

std::optional<stored_voice_provider> one(const pg_rows& rows, int64_t tenant_id) {
  if (rows.size() == 0)
    return std::nullopt;
  return stored_of(rows, 0, tenant_id);
}

} // namespace

std::optional<domain::voice_provider_config>
insert_voice_provider(soci::session& sql, int64_t tenant_id, domain::voice_provider_kind kind,
                      const domain::secret_box::sealed& credentials, int32_t concurrency_limit) {
  soci::transaction tx{sql};
  if (execute(sql, lock_tenant_stmt, {tenant_id}).int64(0, 0) >=
      domain::max_voice_providers_per_tenant)
    return std::nullopt;
  domain::voice_provider_config out;
  out.tenant_id = tenant_id;
  out.kind = kind;
  out.concurrency_limit = concurrency_limit;
  auto rows = execute(sql, insert_stmt,
                      {tenant_id, domain::to_string(kind), domain::to_hex(credentials.ciphertext),
                       domain::to_hex(credentials.nonce), concurrency_limit});
  out.id = rows.int64(0, 0);
  out.created_at = rows.timestamp(0, 1);
  out.updated_at = out.created_at;
  tx.commit();
  return out;
}

bool hold_voice_provider(soci::session& sql, int64_t tenant_id, int64_t id) {
  return execute(sql, hold_stmt, {tenant_id, id}).size() > 0;
}

page_of<stored_voice_provider> list_voice_providers(soci::session& sql, int64_t tenant_id,
                                                    const page_request& page) {
  return page_from(
      execute(sql, count_stmt, {tenant_id}),
      execute(sql, page_stmt, {tenant_id, page.page_size, offset_of(page)}),
      [tenant_id](const pg_rows& rows, int i) { return stored_of(rows, i, tenant_id); });
}

std::optional<stored_voice_provider> find_voice_provider(soci::session& sql, int64_t tenant_id,
                                                         int64_t id) {
  return one(execute(sql, find_stmt, {tenant_id, id}), tenant_id);
}

std::optional<domain::result<stored_voice_provider>>
update_voice_provider(soci::session& sql, int64_t tenant_id, int64_t id,
                      const credentials_rewrite& rewrite,
                      std::optional<int32_t> concurrency_limit) {
  soci::transaction tx{sql};
  // The campaigns' rows first, as a dial pass locks a campaign before its
  // provider.
  execute(sql, wake_stmt, {tenant_id, id});
  auto current = one(execute(sql, lock_stmt, {tenant_id, id}), tenant_id);
  if (!current)
    return std::nullopt;
  auto sealed = rewrite(current->config.kind, current->credentials);
  if (!sealed)
    return domain::result<stored_voice_provider>{sealed.err()};
  execute(sql, update_stmt,
          {tenant_id, id, domain::to_hex(sealed->ciphertext), domain::to_hex(sealed->nonce),
           concurrency_limit});
  auto updated = one(execute(sql, find_stmt, {tenant_id, id}), tenant_id);
  tx.commit();
  return domain::result<stored_voice_provider>{std::move(*updated)};
}

voice_provider_removal delete_voice_provider(soci::session& sql, int64_t tenant_id, int64_t id) {
  soci::transaction tx{sql};
  // FOR UPDATE waits for a campaign being saved with this configuration
  // (hold_voice_provider), so the count below sees it.
  if (execute(sql, lock_to_delete_stmt, {tenant_id, id}).size() == 0)
    return voice_provider_removal::not_found;
  if (execute(sql, campaigns_using_stmt, {tenant_id, id}).int64(0, 0) > 0)
    return voice_provider_removal::campaigns_use_it;
  if (execute(sql, open_calls_stmt, {id}).int64(0, 0) > 0)
    return voice_provider_removal::calls_open;
  execute(sql, delete_stmt, {tenant_id, id});
  tx.commit();
  return voice_provider_removal::removed;
}

} // namespace vcs::storage
