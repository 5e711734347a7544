#pragma once

// The lead's fields as a provider's dynamic variables, for the assistant's
// script ("custom_fields ... used for call script personalisation", says
// the contract): phone_number, first_name, last_name and email, then each
// custom field by its own name; text values as they are, other values as
// their JSON text. The lead's own fields win over a custom field of the
// same name.

#include "actors/voice_gateway.hpp"
#include "json/json.hpp"

namespace vcs::outbound {

// Writes the variables as one JSON object of strings; with `name_the_call`,
// also vcs_call_id, our id of the call, for a provider that sends the
// variables back with its report (provider_c).
void write_lead_variables(json::json_out& out, const actors::call_placement& call,
                          bool name_the_call = false);

} // namespace vcs::outbound
