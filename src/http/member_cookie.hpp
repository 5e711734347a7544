#pragma once

// The signed-in member's session cookie and the checks a cookie request
// must pass before it may change anything (OWASP CSRF prevention: an Origin
// of this service and the session's own CSRF token).

#include <cstdint>
#include <string>
#include <string_view>

namespace vcs::http {

// __Host-: only this origin, Secure, Path=/ and no Domain, so no sibling
// host can set or read it. Browsers treat a loopback address as secure,
// so the cookie holds on http://127.0.0.1 too.
inline constexpr std::string_view session_cookie_name = "__Host-vcs_session";
// The header a state-changing cookie request carries its CSRF token in.
inline constexpr std::string_view csrf_header_name = "X-CSRF-Token";

// The session cookie's value in a Cookie header; empty when absent.
std::string_view session_cookie(std::string_view cookie_header) noexcept;

// Set-Cookie for a new session living `max_age_seconds`, and one that
// ends it in the browser.
std::string session_cookie_header(std::string_view token, int64_t max_age_seconds);
std::string ended_session_cookie_header();

// Whether `origin` (an Origin header) names this service as the browser
// reached it: http or https and the request's own Host.
bool same_origin(std::string_view origin, std::string_view host) noexcept;

// Whether a request of `method` may change something (not GET or HEAD).
bool changes_state(std::string_view method) noexcept;

} // namespace vcs::http
