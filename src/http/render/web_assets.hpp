#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace vcs::http {

// Files embedded at build time (src/http/CMakeLists.txt): openapi-public.json
// and openapi-operator.json (docs/openapi.yaml, one document per listener)
// and redoc.standalone.js (the renderer of /docs).
const std::vector<std::pair<std::string_view, std::string_view>>& web_assets();

} // namespace vcs::http
