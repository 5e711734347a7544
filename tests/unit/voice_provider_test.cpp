#include "domain/voice_provider.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

namespace {

using namespace vcs::domain;

constexpr voice_provider_kind all_kinds[] = {
    voice_provider_kind::provider_a, voice_provider_kind::provider_b,
    voice_provider_kind::provider_c, voice_provider_kind::provider_d,
    voice_provider_kind::simulated};

// name -> (required, secret), for comparing whole tables at once.
using field_table = std::vector<std::tuple<std::string, bool, bool>>;

field_table table_of(voice_provider_kind k) {
  field_table table;
  for (const auto& field : credential_fields(k))
    table.emplace_back(std::string{field.name}, field.required, field.secret);
  return table;
}

TEST(VoiceProvider, NamesAndParsing) {
  EXPECT_EQ(voice_provider_names(),
            (std::vector<std::string>{"provider_a", "provider_b", "provider_c", "provider_d",
                                      "simulated"}));
  for (const voice_provider_kind k : all_kinds)
    EXPECT_EQ(parse_voice_provider(to_string(k)), k);
  for (const char* bad : {"", "PROVIDER_A", "provider_e", "provider_a ", "provider"})
    EXPECT_EQ(parse_voice_provider(bad), std::nullopt) << '"' << bad << '"';
}

TEST(VoiceProvider, ProviderACredentials) {
  EXPECT_EQ(table_of(voice_provider_kind::provider_a),
            (field_table{{"provider_a_private_key", true, true},
                         {"provider_a_public_key", true, true},
                         {"provider_a_organization_id", true, false},
                         {"provider_a_organization_name", false, false}}));
}

TEST(VoiceProvider, ProviderBCredentials) {
  EXPECT_EQ(table_of(voice_provider_kind::provider_b),
            (field_table{{"provider_b_api_key", true, true},
                         {"provider_b_organization_name", false, false}}));
}

TEST(VoiceProvider, ProviderCCredentials) {
  // The webhook secret is optional on its own; it is required only together
  // with the webhook id, which the caller enforces.
  EXPECT_EQ(table_of(voice_provider_kind::provider_c),
            (field_table{{"provider_c_api_key", true, true},
                         {"provider_c_organization_name", false, false},
                         {"provider_c_webhook_id", false, false},
                         {"provider_c_webhook_secret_key", false, true}}));
}

TEST(VoiceProvider, ProviderDCredentials) {
  EXPECT_EQ(table_of(voice_provider_kind::provider_d),
            (field_table{{"provider_d_api_key", true, true},
                         {"provider_d_organization_name", false, false}}));
}

// No vendor, nothing to keep.
TEST(VoiceProvider, TheSimulatedKindTakesNoCredentials) {
  EXPECT_TRUE(credential_fields(voice_provider_kind::simulated).empty());
}

TEST(VoiceProvider, EveryFieldBelongsToItsOwnProvider) {
  for (const voice_provider_kind k : all_kinds) {
    const std::string prefix = std::string{to_string(k)} + "_";
    for (const auto& field : credential_fields(k))
      EXPECT_TRUE(field.name.starts_with(prefix)) << field.name;
  }
}

TEST(VoiceProvider, AllCredentialFieldNamesIsTheUnionWithoutDuplicates) {
  std::vector<std::string> expected;
  for (const voice_provider_kind k : all_kinds)
    for (const auto& field : credential_fields(k))
      expected.emplace_back(field.name);
  const auto& all = all_credential_field_names();
  EXPECT_EQ(all, expected);
  EXPECT_EQ(all.size(), 12u); // the spec's twelve credential fields
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
}

TEST(VoiceProvider, ConcurrencyDefaultIsInsideItsBounds) {
  EXPECT_LE(concurrency_limit_min, concurrency_limit_default);
  EXPECT_LE(concurrency_limit_default, concurrency_limit_max);
  EXPECT_EQ(voice_provider_config{}.concurrency_limit, concurrency_limit_default);
}

// Four characters of a short secret say too much of it: only long ones
// show their end.
TEST(VoiceProvider, MaskedCredentialsShowTheLastFourOfLongSecretsOnly) {
  EXPECT_EQ(mask_credential(""), "****");
  EXPECT_EQ(mask_credential("short-key"), "****");
  EXPECT_EQ(mask_credential("fifteen-chars-x"), "****");
  EXPECT_EQ(mask_credential("sixteen-chars-xy"), "****s-xy");
  EXPECT_EQ(mask_credential("sk_live_0123456789abcdef"), "****cdef");
}

} // namespace
