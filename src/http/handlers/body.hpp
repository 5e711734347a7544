#pragma once

#include "http/handler.hpp"
#include "http/json.hpp"

#include <optional>

namespace vcs::http::handlers {

// The request body as a JSON object; on anything else throws request_error
// 400 `Invalid data`.
rapidjson::Document object_body(const exchange_ptr& ex);

// The required `client_id` member: a client's plain integer id or global id;
// anything else is a field error.
std::optional<int64_t> client_reference(object_reader& in, domain::field_errors& errors);

// The optional `{now}` body of an operator run on demand (ISO 8601): the
// clock when there is no body or no `now`; throws request_error 400 for a
// bad one.
domain::timestamp as_of_body(const exchange_ptr& ex);

// 400 {message: "Validation error", errors: {field: [...]}}.
domain::error validation_error(domain::field_errors errors);

} // namespace vcs::http::handlers
