#pragma once

#include "domain/error.hpp"
#include "domain/phone_number_pool.hpp"

#include <rapidjson/document.h>

namespace vcs::http {

// Reads a phone number pool's fields from a JSON object and checks them
// (domain::validate_pool; `creating`: name and numbers required). Every bad
// field is reported at once in `errors`: what a field's reading found, else
// the rules' problem with it.
domain::pool_fields read_pool_fields(const rapidjson::Value& object, bool creating,
                                     domain::field_errors& errors);

} // namespace vcs::http
