// The web pages (web/, built at build time and embedded): the tenant
// console, one page for every path under /console that reads the public API
// with a member's session, and the client portal, one page for every path
// under /portal that reads it with a client user's session; their scripts
// and their shared style sheet. No authentication: the files hold no
// tenant's data.

#include "http/handlers/handlers.hpp"
#include "http/handlers/static_file.hpp"

namespace vcs::http::handlers {

namespace {

// Scripts and styles only from this origin (none inline), requests only to
// it, and no framing: what is needed to keep a page that holds a session
// from running or showing anyone else's code.
constexpr std::string_view content_security_policy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

std::shared_ptr<handler> page_file(std::string_view name, const char* content_type) {
  return std::make_shared<static_file>(
      embedded_asset(name), content_type,
      std::vector<std::pair<std::string, std::string>>{
          {"Content-Security-Policy", std::string{content_security_policy}},
          {"X-Content-Type-Options", "nosniff"},
          {"X-Frame-Options", "DENY"},
          {"Referrer-Policy", "no-referrer"},
          {"Cross-Origin-Opener-Policy", "same-origin"},
          // Small files: always asked again, so an upgrade shows at once.
          {"Cache-Control", "no-cache"}});
}

} // namespace

std::shared_ptr<handler> console_page() {
  return page_file("console.html", "text/html; charset=utf-8");
}

std::shared_ptr<handler> console_script() {
  return page_file("console.js", "application/javascript; charset=utf-8");
}

std::shared_ptr<handler> web_style() {
  return page_file("web.css", "text/css; charset=utf-8");
}

std::shared_ptr<handler> portal_page() {
  return page_file("portal.html", "text/html; charset=utf-8");
}

std::shared_ptr<handler> portal_script() {
  return page_file("portal.js", "application/javascript; charset=utf-8");
}

} // namespace vcs::http::handlers
