#pragma once

#include "domain/error.hpp"

#include <rapidjson/document.h>

#include <functional>
#include <string>

namespace vcs::http {

// Calls `each(kind, field, value)` for every member of `object` named after
// a resource kind (domain::resource_kinds) once; a name that is no kind, or
// a kind given again, is an error under "<prefix>.<name>" (`field`).
void each_resource_kind(const rapidjson::Value& object, const std::string& prefix,
                        domain::field_errors& errors,
                        const std::function<void(const std::string& kind, const std::string& field,
                                                 const rapidjson::Value& value)>& each);

} // namespace vcs::http
