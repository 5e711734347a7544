#pragma once

#include "domain/campaign.hpp"
#include "domain/error.hpp"

#include <rapidjson/document.h>

#include <string>

namespace vcs::http {

// The campaign fields of a create or update body, type-checked (wrong JSON
// types are reported under the field's name in `errors`).
struct campaign_input {
  domain::campaign_fields fields;
  // tenant_voice_provider_id as sent (empty when absent) and whether it
  // decodes as a voice provider id; an undecodable one is "not found".
  std::string voice_provider_ref;
  bool voice_provider_malformed = false;
};

campaign_input read_campaign_input(const rapidjson::Value& body, domain::field_errors& errors);

} // namespace vcs::http
