// One key per purpose: stored secrets are sealed with a key derived from the
// service key for sealing alone, never with the service key itself, and
// secrets an older version sealed with the service key are sealed again when
// a node starts, once, and stay readable.

#include "domain/global_id.hpp"
#include "domain/hex.hpp"
#include "domain/sealed_bindings.hpp"
#include "domain/service_keys.hpp"
#include "http_client.hpp"
#include "json_helpers.hpp"
#include "service_process.hpp"
#include "storage/database.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <optional>
#include <string>

namespace vcs::test {
namespace {

// The service key service_process starts nodes with.
const auto keys = *domain::service_keys::from_hex(std::string(64, 'a'));

std::optional<domain::secret_box::sealed> stored_webhook_secret(soci::session& sql, int64_t id) {
  std::string ciphertext, nonce;
  soci::indicator ci{}, ni{};
  sql << "SELECT encode(webhook_secret_ciphertext, 'hex'), encode(webhook_secret_nonce, 'hex') "
         "FROM tenants WHERE id = :id",
      soci::use(id), soci::into(ciphertext, ci), soci::into(nonce, ni);
  if (ci != soci::i_ok || ni != soci::i_ok)
    return std::nullopt;
  return domain::secret_box::sealed{*domain::from_hex(ciphertext), *domain::from_hex(nonce)};
}

TEST(service_keys_test, secrets_are_sealed_with_the_sealing_key_and_old_ones_sealed_again_once) {
  const domain::secret_box sealing_only{keys.sealing};
  const domain::secret_box service_key_itself{keys.legacy};
  auto sql = storage::open_session(database_url());
  int64_t tenant = 0;
  {
    service_process node;
    http_client op{"127.0.0.1", node.operator_port()};
    auto created = parse(op.request("POST", "/admin/v1/tenants", R"({"name":"keys","plan":"PRO"})",
                                    bearer(node.operator_token()))
                             .body);
    const auto id = str(created, "tenant_id");
    tenant = *domain::decode_global_id(domain::entity::tenant, id);
    auto secret = op.request("POST", "/admin/v1/tenants/" + id + "/webhook-secret", {},
                             bearer(node.operator_token()));
    ASSERT_EQ(secret.status, 201u) << secret.body;
    const auto sealed = stored_webhook_secret(*sql, tenant);
    ASSERT_TRUE(sealed);
    const auto binding = domain::webhook_secret_binding(tenant);
    EXPECT_TRUE(sealing_only.open(*sealed, binding));
    EXPECT_FALSE(service_key_itself.open(*sealed, binding)) << "sealed with the service key";
  }
  // As an older version left it: sealed with the service key itself, and
  // not yet sealed again.
  const std::string old_secret = "whsec_c2VhbGVkIGJ5IGFuIG9sZGVyIHZlcnNpb24";
  const auto old = service_key_itself.seal(old_secret, domain::webhook_secret_binding(tenant));
  const auto ciphertext = domain::to_hex(old.ciphertext), nonce = domain::to_hex(old.nonce);
  *sql << "UPDATE tenants SET webhook_secret_ciphertext = decode(:c, 'hex'), "
          "webhook_secret_nonce = decode(:n, 'hex') WHERE id = :id",
      soci::use(ciphertext), soci::use(nonce), soci::use(tenant);
  *sql << "DELETE FROM key_changes";
  {
    service_process node;
    const auto sealed = stored_webhook_secret(*sql, tenant);
    ASSERT_TRUE(sealed);
    EXPECT_EQ(sealing_only.open(*sealed, domain::webhook_secret_binding(tenant)), old_secret);
  }
  long long recorded = 0;
  *sql << "SELECT count(*) FROM key_changes WHERE name = 'purpose_keys'", soci::into(recorded);
  EXPECT_EQ(recorded, 1);
  // Once: a secret an older node seals afterwards stays as it is (it opens
  // all the same).
  *sql << "UPDATE tenants SET webhook_secret_ciphertext = decode(:c, 'hex'), "
          "webhook_secret_nonce = decode(:n, 'hex') WHERE id = :id",
      soci::use(ciphertext), soci::use(nonce), soci::use(tenant);
  {
    service_process node;
    EXPECT_EQ(stored_webhook_secret(*sql, tenant)->ciphertext, old.ciphertext);
    EXPECT_EQ(keys.box().open(*stored_webhook_secret(*sql, tenant),
                              domain::webhook_secret_binding(tenant)),
              old_secret);
  }
}

} // namespace
} // namespace vcs::test
