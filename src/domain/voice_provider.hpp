#pragma once

#include "domain/error.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

// simulated: no vendor behind it, on any node (a tenant's dry run of a
// campaign on a live server; docs/decisions/voice-providers.md).
enum class voice_provider_kind : uint8_t {
  provider_a,
  provider_b,
  provider_c,
  provider_d,
  simulated
};

// "provider_a" .. "provider_d", "simulated".
std::string_view to_string(voice_provider_kind k) noexcept;
std::optional<voice_provider_kind> parse_voice_provider(std::string_view text) noexcept;
const std::vector<std::string>& voice_provider_names();

// concurrency_limit bounds; absent means the default
// (docs/decisions/campaigns.md#voice-provider-configurations-post-apiv2voice-pod).
inline constexpr int32_t concurrency_limit_min = 1;
inline constexpr int32_t concurrency_limit_max = 1000;
inline constexpr int32_t concurrency_limit_default = 10;
inline constexpr std::size_t credential_max_length = 4096;
// A tenant holds at most this many configurations, so that every list of
// them stays bounded.
inline constexpr int64_t max_voice_providers_per_tenant = 100;

struct credential_field {
  std::string_view name; // e.g. "provider_a_private_key"
  bool required;
  bool secret; // organisation names are not secrets, keys are
};

// The credential fields a provider takes:
// - provider_a: provider_a_private_key (required, secret),
//   provider_a_public_key (required, secret), provider_a_organization_id
//   (required), provider_a_organization_name (optional)
// - provider_b: provider_b_api_key (required, secret),
//   provider_b_organization_name (optional)
// - provider_c: provider_c_api_key (required, secret),
//   provider_c_organization_name (optional), provider_c_webhook_id
//   (optional), provider_c_webhook_secret_key (optional, secret; required
//   when provider_c_webhook_id is given)
// - provider_d: provider_d_api_key (required, secret),
//   provider_d_organization_name (optional)
// - simulated: none
const std::vector<credential_field>& credential_fields(voice_provider_kind k);

// Every credential field name of every provider (to reject another
// provider's fields).
const std::vector<std::string>& all_credential_field_names();

struct voice_provider_config {
  int64_t id = 0;
  int64_t tenant_id = 0;
  voice_provider_kind kind = voice_provider_kind::provider_a;
  int32_t concurrency_limit = concurrency_limit_default;
  timestamp created_at{};
  timestamp updated_at{};
};

// How a secret credential is shown once stored: "****" and its last four
// characters, the four only when it is long enough (16 or more) that they
// say little about the rest.
std::string mask_credential(std::string_view secret);

// 400: a tenant's configurations are at max_voice_providers_per_tenant.
error too_many_voice_providers();

// 403: a key held to some campaigns changes no configuration (others'
// campaigns may use it).
error voice_provider_change_out_of_scope();

// 409: what still uses the configuration, in words.
error voice_provider_in_use(std::string why);

} // namespace vcs::domain
