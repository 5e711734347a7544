#pragma once

#include "domain/error.hpp"
#include "domain/timestamp.hpp"
#include "http/inputs/json.hpp"
#include "http/work/handler.hpp"

#include <optional>

namespace vcs::http::handlers {

// The request body as a JSON object, or 400 `Invalid data` for anything
// else.
domain::result<rapidjson::Document> object_body(const exchange_ptr& ex);

// The required `client_id` member: a client's plain integer id or global id;
// anything else is a field error.
std::optional<int64_t> client_reference(object_reader& in, domain::field_errors& errors);

// The optional `{now}` body of an operator run on demand (ISO 8601): the
// clock when there is no body or no `now`, 400 for a bad one, and 403 for
// any `now` unless `test_clock` (the allow-test-clock setting) is on.
domain::result<domain::timestamp> as_of_body(const exchange_ptr& ex, bool test_clock);

// 400 {message: "Validation error", errors: {field: [...]}}.
domain::error validation_error(domain::field_errors errors);

} // namespace vcs::http::handlers
