#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

// Record kinds that carry a global ID. The type name is part of the encoded
// ID, so an ID of one kind never decodes as another.
enum class entity : uint8_t {
  tenant,
  api_key,
  campaign,
  lead,
  client,
  client_user,
  account_configuration,
  web_widget,
  voice_provider,
  client_form,
  form_submission,
  phone_number_pool,
  lead_import,
  member,
};

// Every kind, in declaration order (tests walk them all).
inline constexpr entity all_entities[] = {
    entity::tenant,
    entity::api_key,
    entity::campaign,
    entity::lead,
    entity::client,
    entity::client_user,
    entity::account_configuration,
    entity::web_widget,
    entity::voice_provider,
    entity::client_form,
    entity::form_submission,
    entity::phone_number_pool,
    entity::lead_import,
    entity::member,
};

// "Tenant", "ApiKey", "VoiceCampaign", "CampaignLead", "Client", "ClientUser",
// "AssetGroup", "WebWidget", "TenantVoiceProvider", "ClientForm",
// "FormSubmission", "PhoneNumberPool", "LeadImport", "Member".
std::string_view type_name(entity kind) noexcept;

// Opaque standard base64 (with padding) of "<TypeName>:<id>"; id > 0.
std::string encode_global_id(entity kind, int64_t id);

// Strict decoding: canonical base64 only, the expected type name, a positive
// decimal id without sign or leading zeros that fits int64. Anything else is
// std::nullopt.
std::optional<int64_t> decode_global_id(entity kind, std::string_view text) noexcept;

// Accepts a plain positive decimal integer or a global ID of `kind`.
std::optional<int64_t> parse_id(entity kind, std::string_view text) noexcept;

// A plain positive decimal integer that fits int64 (no sign, no leading zero).
std::optional<int64_t> parse_positive_int(std::string_view text) noexcept;

} // namespace vcs::domain
