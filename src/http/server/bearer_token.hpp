#pragma once

#include "domain/trim.hpp"

#include <cctype>
#include <string_view>

namespace vcs::http {

// The token of an Authorization header "Bearer <token>": the scheme in any
// case, spaces around the token ignored (RFC 9110, 11.1). Empty for any other
// header.
inline std::string_view bearer_token(std::string_view header) noexcept {
  constexpr std::string_view scheme = "bearer ";
  if (header.size() <= scheme.size())
    return {};
  for (std::size_t i = 0; i < scheme.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(header[i])) != scheme[i])
      return {};
  return domain::trim_spaces(header.substr(scheme.size()));
}

} // namespace vcs::http
