#include "http/handlers/handlers.hpp"
#include "http/web_assets.hpp"

#include <stdexcept>

namespace vcs::http::handlers {

namespace {

std::string_view asset(std::string_view name) {
  for (const auto& [file, content] : web_assets())
    if (file == name)
      return content;
  throw std::logic_error("missing embedded asset");
}

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

// Answers one fixed document; no authentication (it describes the API, and
// holds no tenant data).
class static_handler final : public handler {
public:
  static_handler(std::string_view body, const char* content_type)
      : body_(body), content_type_(content_type) {}
  access required_access() const override { return access::none; }
  void handle(const exchange_ptr& ex, worker_context&) override {
    outbound_response r;
    r.body = std::string{body_};
    r.content_type = content_type_;
    r.headers.emplace_back("Cache-Control", "public, max-age=300");
    ex->respond(std::move(r));
  }

private:
  std::string_view body_;
  const char* content_type_;
};

} // namespace

std::shared_ptr<handler> openapi_document(listener_kind listener) {
  return std::make_shared<static_handler>(asset(listener == listener_kind::operator_api
                                                    ? "openapi-operator.json"
                                                    : "openapi-public.json"),
                                          "application/json");
}
std::shared_ptr<handler> api_reference_page() {
  return std::make_shared<static_handler>(page, "text/html; charset=utf-8");
}
std::shared_ptr<handler> api_reference_script() {
  return std::make_shared<static_handler>(asset("redoc.standalone.js"),
                                          "application/javascript; charset=utf-8");
}

} // namespace vcs::http::handlers
