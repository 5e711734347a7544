#include "domain/billing.hpp"

#include <cctype>

namespace vcs::domain {

bool is_decimal(std::string_view text, int max_scale) noexcept {
  auto dot = text.find('.');
  auto whole = text.substr(0, dot);
  if (whole.empty() || whole.size() > 10)
    return false;
  for (char c : whole)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  if (dot == std::string_view::npos)
    return true;
  auto frac = text.substr(dot + 1);
  if (frac.empty() || frac.size() > static_cast<std::size_t>(max_scale))
    return false;
  for (char c : frac)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

bool is_currency(std::string_view text) noexcept {
  if (text.size() != 3)
    return false;
  for (char c : text)
    if (!std::isalpha(static_cast<unsigned char>(c)))
      return false;
  return true;
}

} // namespace vcs::domain
