#include "storage/voice_provider_repository.hpp"

#include "domain/hex.hpp"
#include "storage/prepared.hpp"

namespace vcs::storage {

namespace {

// bytea goes in as hex text: parameters are sent in text form.
constexpr prepared_statement insert_stmt{
    "vcs_insert_voice_provider",
    "INSERT INTO voice_providers (tenant_id, voice_provider, credentials_ciphertext, "
    "credentials_nonce, concurrency_limit) "
    "VALUES ($1, $2, decode($3, 'hex'), decode($4, 'hex'), $5) RETURNING id, created_at"};

constexpr prepared_statement exists_stmt{
    "vcs_voice_provider_exists",
    "SELECT count(*) FROM voice_providers WHERE tenant_id = $1 AND id = $2"};

} // namespace

domain::voice_provider_config insert_voice_provider(soci::session& sql, int64_t tenant_id,
                                                    domain::voice_provider_kind kind,
                                                    const domain::secret_box::sealed& credentials,
                                                    int32_t concurrency_limit) {
  domain::voice_provider_config out;
  out.tenant_id = tenant_id;
  out.kind = kind;
  out.concurrency_limit = concurrency_limit;
  auto rows = execute(sql, insert_stmt,
                      {tenant_id, domain::to_string(kind), domain::to_hex(credentials.ciphertext),
                       domain::to_hex(credentials.nonce), concurrency_limit});
  out.id = rows.int64(0, 0);
  out.created_at = rows.timestamp(0, 1);
  return out;
}

bool voice_provider_exists(soci::session& sql, int64_t tenant_id, int64_t id) {
  return execute(sql, exists_stmt, {tenant_id, id}).int64(0, 0) > 0;
}

} // namespace vcs::storage
