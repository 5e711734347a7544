#pragma once

// One call as the API shows it: the tenant's call list and call read, and
// the operator's call list (which adds its older names).

#include "http/inputs/json.hpp"
#include "storage/call_repository.hpp"

namespace vcs::http::handlers {

// The call's fields, into an object the caller opened. The transcript is
// written only `with_transcript` (the call read; a list leaves it out).
void render_call_fields(json_out& out, const storage::call_record& c, bool with_transcript);

} // namespace vcs::http::handlers
