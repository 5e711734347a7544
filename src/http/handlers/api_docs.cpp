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

// The reference page runs a large third-party bundle on the console's
// host: its CSP gives it no origin of its own (sandbox: it cannot read this
// origin's cookies, storage or API with them), runs only that bundle, and
// lets no other site frame it. Redoc sets styles through the CSSOM (allowed
// without 'unsafe-inline') and searches in a blob: worker.
constexpr std::string_view page_policy =
    "sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox; default-src 'none'; "
    "script-src 'self'; style-src 'self' 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=' "
    "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; worker-src blob:; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'none'";
// The script and the document are data to any page that loads them.
constexpr std::string_view data_policy = "default-src 'none'; frame-ancestors 'none'";

// The reference changes only with the binary. The sandboxed page has no
// origin, so it reads the document cross-origin: the document, public and
// without credentials, allows that.
std::shared_ptr<handler> reference_file(std::string_view body, const char* content_type,
                                        std::string_view policy, bool shared = false) {
  std::vector<std::pair<std::string, std::string>> headers{
      {"Cache-Control", "public, max-age=300"},
      {"Content-Security-Policy", std::string{policy}},
      {"X-Content-Type-Options", "nosniff"},
      {"X-Frame-Options", "DENY"},
      {"Referrer-Policy", "no-referrer"}};
  if (shared)
    headers.emplace_back("Access-Control-Allow-Origin", "*");
  return std::make_shared<static_file>(body, content_type, std::move(headers));
}

} // namespace

std::shared_ptr<handler> openapi_document(listener_kind listener) {
  return reference_file(embedded_asset(listener == listener_kind::operator_api
                                           ? "openapi-operator.json"
                                           : "openapi-public.json"),
                        "application/json", data_policy, true);
}
std::shared_ptr<handler> api_reference_page() {
  return reference_file(page, "text/html; charset=utf-8", page_policy);
}
std::shared_ptr<handler> api_reference_script() {
  return reference_file(embedded_asset("redoc.standalone.js"),
                        "application/javascript; charset=utf-8", data_policy, true);
}

} // namespace vcs::http::handlers
