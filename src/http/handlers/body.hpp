#pragma once

#include "http/handler.hpp"
#include "http/json.hpp"

#include <optional>

namespace vcs::http::handlers {

// The request body as a JSON object; on anything else the exchange is
// answered with 400 `Invalid data` and nullopt returned.
std::optional<rapidjson::Document> object_body(const exchange_ptr& ex);

// 400 {message: "Validation error", errors: {field: [...]}}.
domain::error validation_error(domain::field_errors errors);

} // namespace vcs::http::handlers
