#include "domain/voice_provider.hpp"

#include <array>

namespace vcs::domain {
namespace {

constexpr std::array<voice_provider_kind, 5> all_kinds{
    voice_provider_kind::provider_a, voice_provider_kind::provider_b,
    voice_provider_kind::provider_c, voice_provider_kind::provider_d,
    voice_provider_kind::simulated};

} // namespace

std::string_view to_string(voice_provider_kind k) noexcept {
  switch (k) {
  case voice_provider_kind::provider_a:
    return "provider_a";
  case voice_provider_kind::provider_b:
    return "provider_b";
  case voice_provider_kind::provider_c:
    return "provider_c";
  case voice_provider_kind::provider_d:
    return "provider_d";
  case voice_provider_kind::simulated:
    return "simulated";
  }
  return {};
}

std::optional<voice_provider_kind> parse_voice_provider(std::string_view text) noexcept {
  for (const voice_provider_kind k : all_kinds)
    if (to_string(k) == text)
      return k;
  return std::nullopt;
}

const std::vector<std::string>& voice_provider_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const voice_provider_kind k : all_kinds)
      out.emplace_back(to_string(k));
    return out;
  }();
  return names;
}

const std::vector<credential_field>& credential_fields(voice_provider_kind k) {
  // Indexed by the enum's value, in declaration order. provider_c's webhook
  // secret is optional here: it becomes required only together with
  // provider_c_webhook_id, which the caller checks.
  static const std::array<std::vector<credential_field>, all_kinds.size()> fields{{
      {{"provider_a_private_key", true, true},
       {"provider_a_public_key", true, true},
       {"provider_a_organization_id", true, false},
       {"provider_a_organization_name", false, false}},
      {{"provider_b_api_key", true, true}, {"provider_b_organization_name", false, false}},
      {{"provider_c_api_key", true, true},
       {"provider_c_organization_name", false, false},
       {"provider_c_webhook_id", false, false},
       {"provider_c_webhook_secret_key", false, true}},
      {{"provider_d_api_key", true, true}, {"provider_d_organization_name", false, false}},
      {},
  }};
  return fields.at(static_cast<std::size_t>(k));
}

const std::vector<std::string>& all_credential_field_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const voice_provider_kind k : all_kinds)
      for (const credential_field& field : credential_fields(k))
        out.emplace_back(field.name);
    return out;
  }();
  return names;
}

std::string mask_credential(std::string_view secret) {
  constexpr std::size_t shown = 4;
  constexpr std::size_t shown_from = 16;
  std::string masked = "****";
  if (secret.size() >= shown_from)
    masked += secret.substr(secret.size() - shown);
  return masked;
}

error too_many_voice_providers() {
  return {errc::bad_request, "A tenant may have at most " +
                                 std::to_string(max_voice_providers_per_tenant) +
                                 " voice provider configurations; delete one first"};
}

error voice_provider_change_out_of_scope() {
  return {errc::forbidden, "This API key reaches only some campaigns and cannot change voice "
                           "provider configurations"};
}

error voice_provider_in_use(std::string why) {
  return {errc::conflict, "Voice provider configuration is in use: " + std::move(why)};
}

} // namespace vcs::domain
