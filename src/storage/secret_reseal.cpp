#include "storage/secret_reseal.hpp"

#include "domain/hex.hpp"
#include "domain/sealed_bindings.hpp"
#include "storage/prepared.hpp"

#include <soci/soci.h>

#include <string>

namespace vcs::storage {

namespace {

constexpr std::string_view change_name = "purpose_keys";
// Rows read at a time from a table that may be large (kept answers).
constexpr int batch = 500;

constexpr prepared_statement lock_stmt{"vcs_lock_key_changes",
                                       "LOCK TABLE key_changes IN EXCLUSIVE MODE"};
constexpr prepared_statement done_stmt{"vcs_key_change_done",
                                       "SELECT count(*) FROM key_changes WHERE name = $1"};
constexpr prepared_statement record_stmt{"vcs_record_key_change",
                                         "INSERT INTO key_changes (name) VALUES ($1)"};

constexpr prepared_statement providers_stmt{
    "vcs_reseal_providers",
    "SELECT id, tenant_id, encode(credentials_ciphertext, 'hex'), encode(credentials_nonce, 'hex') "
    "FROM voice_providers WHERE id > $1 ORDER BY id LIMIT $2::int"};
constexpr prepared_statement provider_update_stmt{
    "vcs_reseal_provider", "UPDATE voice_providers SET credentials_ciphertext = decode($2, 'hex'), "
                           "credentials_nonce = decode($3, 'hex') WHERE id = $1"};

constexpr prepared_statement tenants_stmt{
    "vcs_reseal_tenants",
    "SELECT id, encode(webhook_secret_ciphertext, 'hex'), encode(webhook_secret_nonce, 'hex'), "
    "encode(webhook_previous_secret_ciphertext, 'hex'), "
    "encode(webhook_previous_secret_nonce, 'hex') FROM tenants "
    "WHERE id > $1 AND (webhook_secret_ciphertext IS NOT NULL "
    "OR webhook_previous_secret_ciphertext IS NOT NULL) ORDER BY id LIMIT $2::int"};
constexpr prepared_statement tenant_update_stmt{
    "vcs_reseal_tenant",
    "UPDATE tenants SET webhook_secret_ciphertext = coalesce(decode($2, 'hex'), "
    "webhook_secret_ciphertext), webhook_secret_nonce = coalesce(decode($3, 'hex'), "
    "webhook_secret_nonce), webhook_previous_secret_ciphertext = coalesce(decode($4, 'hex'), "
    "webhook_previous_secret_ciphertext), webhook_previous_secret_nonce = "
    "coalesce(decode($5, 'hex'), webhook_previous_secret_nonce) WHERE id = $1"};

constexpr prepared_statement answers_stmt{
    "vcs_reseal_answers",
    "SELECT tenant_id, idem_key, encode(response_ciphertext, 'hex'), "
    "encode(response_nonce, 'hex') FROM idempotency_keys "
    "WHERE (tenant_id, idem_key) > ($1, $2) AND response_ciphertext IS NOT NULL "
    "ORDER BY tenant_id, idem_key LIMIT $3::int"};
constexpr prepared_statement answer_update_stmt{
    "vcs_reseal_answer",
    "UPDATE idempotency_keys SET response_ciphertext = decode($3, 'hex'), "
    "response_nonce = decode($4, 'hex') WHERE tenant_id = $1 AND idem_key = $2"};

// `sealed` opened and sealed again, as hex (ciphertext, nonce); nullopt
// when absent or when `box` cannot open it.
std::optional<std::pair<std::string, std::string>>
sealed_again(const domain::secret_box& box, const std::optional<domain::secret_box::sealed>& sealed,
             const std::string& binding) {
  if (!sealed)
    return std::nullopt;
  auto plain = box.open(*sealed, binding);
  if (!plain)
    return std::nullopt;
  auto again = box.seal(*plain, binding);
  return std::pair{domain::to_hex(again.ciphertext), domain::to_hex(again.nonce)};
}

int reseal_providers(soci::session& sql, const domain::secret_box& box) {
  int done = 0;
  for (int64_t after = 0;;) {
    auto rows = execute(sql, providers_stmt, {after, batch});
    for (int i = 0; i < rows.size(); ++i) {
      after = rows.int64(i, 0);
      if (auto again = sealed_again(box, rows.opt_sealed(i, 2, 3),
                                    domain::voice_provider_binding(rows.int64(i, 1)))) {
        execute(sql, provider_update_stmt, {after, again->first, again->second});
        ++done;
      }
    }
    if (rows.size() < batch)
      return done;
  }
}

int reseal_tenants(soci::session& sql, const domain::secret_box& box) {
  int done = 0;
  for (int64_t after = 0;;) {
    auto rows = execute(sql, tenants_stmt, {after, batch});
    for (int i = 0; i < rows.size(); ++i) {
      after = rows.int64(i, 0);
      const auto binding = domain::webhook_secret_binding(after);
      auto current = sealed_again(box, rows.opt_sealed(i, 1, 2), binding);
      auto previous = sealed_again(box, rows.opt_sealed(i, 3, 4), binding);
      if (!current && !previous)
        continue;
      auto part = [](const auto& p, bool first) -> std::optional<std::string> {
        if (!p)
          return std::nullopt;
        return first ? p->first : p->second;
      };
      execute(sql, tenant_update_stmt,
              {after, part(current, true), part(current, false), part(previous, true),
               part(previous, false)});
      done += (current ? 1 : 0) + (previous ? 1 : 0);
    }
    if (rows.size() < batch)
      return done;
  }
}

int reseal_answers(soci::session& sql, const domain::secret_box& box) {
  int done = 0;
  int64_t tenant = 0;
  std::string key;
  for (;;) {
    auto rows = execute(sql, answers_stmt, {tenant, key, batch});
    for (int i = 0; i < rows.size(); ++i) {
      tenant = rows.int64(i, 0);
      key = std::string{rows.text(i, 1)};
      if (auto again = sealed_again(box, rows.opt_sealed(i, 2, 3),
                                    domain::idempotency_binding(tenant, key))) {
        execute(sql, answer_update_stmt, {tenant, key, again->first, again->second});
        ++done;
      }
    }
    if (rows.size() < batch)
      return done;
  }
}

} // namespace

std::optional<int> reseal_stored_secrets(soci::session& sql, const domain::secret_box& box) {
  soci::transaction tx{sql};
  // Nodes starting at once: one seals, the others wait and find it done.
  execute(sql, lock_stmt, {});
  if (execute(sql, done_stmt, {std::string{change_name}}).int64(0, 0) > 0)
    return std::nullopt;
  const int done = reseal_providers(sql, box) + reseal_tenants(sql, box) + reseal_answers(sql, box);
  execute(sql, record_stmt, {std::string{change_name}});
  tx.commit();
  return done;
}

} // namespace vcs::storage
