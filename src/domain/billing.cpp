#include "domain/billing.hpp"

#include <algorithm>
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

int64_t to_units(std::string_view decimal, int scale) {
  int64_t units = 0;
  int places = -1;
  for (char c : decimal) {
    if (c == '.') {
      places = 0;
      continue;
    }
    if (places >= scale)
      break;
    units = units * 10 + (c - '0');
    if (places >= 0)
      ++places;
  }
  for (int i = std::max(places, 0); i < scale; ++i)
    units *= 10;
  return units;
}

std::string from_units(int64_t units, int scale, int min_places) {
  int64_t divisor = 1;
  for (int i = 0; i < scale; ++i)
    divisor *= 10;
  std::string frac = std::to_string(units % divisor);
  frac.insert(0, static_cast<std::size_t>(scale) - frac.size(), '0');
  while (static_cast<int>(frac.size()) > min_places && !frac.empty() && frac.back() == '0')
    frac.pop_back();
  auto whole = std::to_string(units / divisor);
  return frac.empty() ? whole : whole + "." + frac;
}

} // namespace vcs::domain
