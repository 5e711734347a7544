#pragma once

#include "domain/error.hpp"

#include <rapidjson/document.h>

#include <string>
#include <utility>
#include <vector>

namespace vcs::http {

// Reads a client_access object: each key a resource kind
// (domain::resource_kinds), given once, each value an access level
// (domain::access_level). Problems go under "client_access.<kind>".
std::vector<std::pair<std::string, std::string>> read_client_access(const rapidjson::Value& object,
                                                                    domain::field_errors& errors);

} // namespace vcs::http
