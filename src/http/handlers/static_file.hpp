#pragma once

// A file embedded in the binary (http/render/web_assets.hpp), answered as it is
// with fixed headers; no authentication (none holds tenant data).

#include "http/render/web_assets.hpp"
#include "http/work/handler.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vcs::http::handlers {

// The embedded file `name`; a build without it is a bug.
inline std::string_view embedded_asset(std::string_view name) {
  for (const auto& [file, content] : web_assets())
    if (file == name)
      return content;
  throw std::logic_error("missing embedded asset");
}

class static_file final : public handler {
public:
  static_file(std::string_view body, std::string content_type,
              std::vector<std::pair<std::string, std::string>> headers)
      : body_(body), content_type_(std::move(content_type)), headers_(std::move(headers)) {}
  access required_access() const override { return access::none; }
  void handle(const exchange_ptr& ex, worker_context&) override {
    outbound_response r;
    r.body = std::string{body_};
    r.content_type = content_type_;
    r.headers = headers_;
    ex->respond(std::move(r));
  }

private:
  std::string_view body_;
  std::string content_type_;
  std::vector<std::pair<std::string, std::string>> headers_;
};

} // namespace vcs::http::handlers
