#pragma once

#include "domain/client_create.hpp"
#include "domain/error.hpp"

#include <rapidjson/document.h>

#include <string>
#include <vector>

namespace vcs::http {

// Reads an assigned-resources object: keys among the eight resource kinds,
// each an array of ids (non-blank, at most 255 characters, no spaces, no
// repeats); campaign ids must be campaign global ids and come back
// canonical, their decoded ids appended to `campaign_ids`. Problems go under
// "<prefix>.<kind>".
domain::assignments read_assignments(const rapidjson::Value& value, const std::string& prefix,
                                     domain::field_errors& errors,
                                     std::vector<int64_t>& campaign_ids);

} // namespace vcs::http
