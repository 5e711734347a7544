#include "http/server/member_cookie.hpp"

#include "domain/trim.hpp"

#include <algorithm>
#include <cctype>

namespace vcs::http {

namespace {

bool same_text_ignoring_case(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

} // namespace

std::string_view session_cookie_name(session_kind k) noexcept {
  return k == session_kind::portal ? "__Host-vcs_portal" : "__Host-vcs_session";
}

std::string_view session_cookie(std::string_view header, session_kind k) noexcept {
  const auto name = session_cookie_name(k);
  while (!header.empty()) {
    auto end = header.find(';');
    auto pair = domain::trim_spaces(header.substr(0, end));
    if (auto eq = pair.find('='); eq != std::string_view::npos && pair.substr(0, eq) == name)
      return domain::trim_spaces(pair.substr(eq + 1));
    if (end == std::string_view::npos)
      break;
    header.remove_prefix(end + 1);
  }
  return {};
}

cookie_session chosen_session(std::string_view cookie_header,
                              std::string_view kind_header) noexcept {
  auto console = session_cookie(cookie_header, session_kind::console);
  auto portal = session_cookie(cookie_header, session_kind::portal);
  if (!portal.empty() && (console.empty() || kind_header == "portal"))
    return {portal, session_kind::portal};
  return {console, session_kind::console};
}

std::string session_cookie_header(session_kind k, std::string_view token, int64_t max_age_seconds) {
  return std::string{session_cookie_name(k)} + "=" + std::string{token} +
         "; Path=/; Max-Age=" + std::to_string(max_age_seconds) +
         "; Secure; HttpOnly; SameSite=Lax";
}

std::string ended_session_cookie_header(session_kind k) {
  return std::string{session_cookie_name(k)} +
         "=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Lax";
}

bool same_origin(std::string_view origin, std::string_view host) noexcept {
  for (std::string_view scheme : {"http://", "https://"})
    if (origin.starts_with(scheme))
      return !host.empty() && same_text_ignoring_case(origin.substr(scheme.size()), host);
  return false;
}

bool changes_state(std::string_view method) noexcept {
  return method != "GET" && method != "HEAD";
}

} // namespace vcs::http
