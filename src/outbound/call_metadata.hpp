#pragma once

// What every live adapter asks its provider to keep with a call and send
// back in its reports: our call id (how a report finds its call), the
// lead's global id and the attempt.

#include "actors/voice_gateway.hpp"
#include "json/json.hpp"

namespace vcs::outbound {

// Writes {"vcs_call_id": "...", "vcs_lead_id": "...", "vcs_attempt": n}.
void write_call_metadata(json::json_out& out, const actors::call_placement& call);

// vcs_call_id of such an object, when it holds a positive id.
std::optional<int64_t> read_call_metadata(const rapidjson::Value& metadata);

} // namespace vcs::outbound
