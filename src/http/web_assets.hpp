#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace vcs::http {

// Files embedded at build time (src/http/CMakeLists.txt): openapi.json (from
// docs/openapi.yaml) and redoc.standalone.js (the renderer of /docs).
const std::vector<std::pair<std::string_view, std::string_view>>& web_assets();

} // namespace vcs::http
