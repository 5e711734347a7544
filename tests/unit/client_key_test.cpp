// Which client a request counts for in the fair queue and the CPU pool.
#include "http/work/fair_queue.hpp"

#include <gtest/gtest.h>

namespace vcs::http {
namespace {

// Every spelling authentication accepts for one key is one client: a
// tenant cannot take more shares by changing the scheme's case or spacing.
TEST(ClientKey, spellings_of_one_bearer_token_are_one_client) {
  const auto key = client_key("Bearer vcs_abc");
  for (const char* spelling : {"bearer vcs_abc", "BEARER vcs_abc", "Bearer   vcs_abc",
                               "Bearer vcs_abc  ", "bEaReR  vcs_abc "})
    EXPECT_EQ(client_key(spelling), key) << spelling;
  EXPECT_NE(client_key("Bearer vcs_abd"), key);
  EXPECT_NE(client_key("Basic vcs_abc"), key);
}

TEST(ClientKey, a_tenant_is_one_client_apart_from_any_token) {
  EXPECT_EQ(tenant_client_key(7), tenant_client_key(7));
  EXPECT_NE(tenant_client_key(7), tenant_client_key(8));
  EXPECT_NE(tenant_client_key(7), client_key("Bearer 7"));
  EXPECT_NE(tenant_client_key(7), address_client_key("7"));
}

TEST(ClientKey, an_address_is_one_client_apart_from_tenants_and_tokens) {
  EXPECT_EQ(address_client_key("127.0.0.1"), address_client_key("127.0.0.1"));
  EXPECT_NE(address_client_key("127.0.0.1"), address_client_key("127.0.0.2"));
  EXPECT_NE(address_client_key("127.0.0.1"), client_key("Bearer 127.0.0.1"));
}

} // namespace
} // namespace vcs::http
