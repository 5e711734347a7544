#include "storage/voice_provider_repository.hpp"

#include "storage/nullable.hpp"

#include <soci/soci.h>

#include <stdexcept>

namespace vcs::storage {

namespace {

// bytea goes in as hex text: SOCI 4.0 has no binary parameter binding.
constexpr const char* insert_sql =
    "INSERT INTO voice_providers (tenant_id, voice_provider, credentials_ciphertext, "
    "credentials_nonce, concurrency_limit) "
    "VALUES (:t, :p, decode(:c, 'hex'), decode(:n, 'hex'), :l) RETURNING id, created_at";

constexpr const char* exists_sql =
    "SELECT count(*) FROM voice_providers WHERE tenant_id = :t AND id = :id";

} // namespace

domain::voice_provider_config insert_voice_provider(soci::session& sql, int64_t tenant_id,
                                                    domain::voice_provider_kind kind,
                                                    const domain::secret_box::sealed& credentials,
                                                    int32_t concurrency_limit) {
  domain::voice_provider_config out;
  out.tenant_id = tenant_id;
  out.kind = kind;
  out.concurrency_limit = concurrency_limit;
  std::string provider{domain::to_string(kind)};
  auto cipher = domain::to_hex(credentials.ciphertext);
  auto nonce = domain::to_hex(credentials.nonce);
  std::string created_at;
  sql << insert_sql, soci::use(tenant_id), soci::use(provider), soci::use(cipher), soci::use(nonce),
      soci::use(concurrency_limit), soci::into(out.id), soci::into(created_at);
  out.created_at = timestamp_column(created_at);
  return out;
}

bool voice_provider_exists(soci::session& sql, int64_t tenant_id, int64_t id) {
  long long n = 0;
  sql << exists_sql, soci::use(tenant_id), soci::use(id), soci::into(n);
  return n > 0;
}

} // namespace vcs::storage
