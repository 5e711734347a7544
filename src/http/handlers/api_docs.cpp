#include "http/handlers/handlers.hpp"
#include "http/handlers/static_file.hpp"

namespace vcs::http::handlers {

namespace {

constexpr std::string_view page = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Voice Campaign Service API</title>
</head>
<body>
<redoc spec-url="/openapi.json"></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
)html";

// The reference changes only with the binary.
std::shared_ptr<handler> reference_file(std::string_view body, const char* content_type) {
  return std::make_shared<static_file>(
      body, content_type,
      std::vector<std::pair<std::string, std::string>>{{"Cache-Control", "public, max-age=300"}});
}

} // namespace

std::shared_ptr<handler> openapi_document(listener_kind listener) {
  return reference_file(embedded_asset(listener == listener_kind::operator_api
                                           ? "openapi-operator.json"
                                           : "openapi-public.json"),
                        "application/json");
}
std::shared_ptr<handler> api_reference_page() {
  return reference_file(page, "text/html; charset=utf-8");
}
std::shared_ptr<handler> api_reference_script() {
  return reference_file(embedded_asset("redoc.standalone.js"),
                        "application/javascript; charset=utf-8");
}

} // namespace vcs::http::handlers
