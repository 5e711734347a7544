#pragma once

// The session cookies, a member's (console) and a client user's (portal),
// and the checks a cookie request must pass before it may change anything
// (OWASP CSRF prevention: an Origin of this service and the session's own
// CSRF token).

#include <cstdint>
#include <string>
#include <string_view>

namespace vcs::http {

// __Host-: only this origin, Secure, Path=/ and no Domain, so no sibling
// host can set or read it. Browsers treat a loopback address as secure,
// so the cookie holds on http://127.0.0.1 too.
enum class session_kind { console, portal };
// "__Host-vcs_session" (console) and "__Host-vcs_portal".
std::string_view session_cookie_name(session_kind k) noexcept;
// With both cookies, a request says it is the portal's with this header
// (value "portal"); otherwise the console's cookie counts.
inline constexpr std::string_view session_kind_header = "X-Session-Kind";
// The header a state-changing cookie request carries its CSRF token in.
inline constexpr std::string_view csrf_header_name = "X-CSRF-Token";

// A session cookie's value in a Cookie header; empty when absent.
std::string_view session_cookie(std::string_view cookie_header, session_kind k) noexcept;

// The session a request acts with: the portal's when its cookie is the only
// one or `kind_header` (X-Session-Kind) says "portal", else the console's
// (an empty token when the request has neither cookie).
struct cookie_session {
  std::string_view token;
  session_kind kind = session_kind::console;
};
cookie_session chosen_session(std::string_view cookie_header,
                              std::string_view kind_header) noexcept;

// Set-Cookie for a new session living `max_age_seconds`, and one that
// ends it in the browser.
std::string session_cookie_header(session_kind k, std::string_view token, int64_t max_age_seconds);
std::string ended_session_cookie_header(session_kind k);

// Whether `origin` (an Origin header) names this service as the browser
// reached it: http or https and the request's own Host.
bool same_origin(std::string_view origin, std::string_view host) noexcept;

// Whether a request of `method` may change something (not GET or HEAD).
bool changes_state(std::string_view method) noexcept;

} // namespace vcs::http
