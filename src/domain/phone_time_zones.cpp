#include "domain/phone_time_zones.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace vcs::domain {
namespace {

struct prefix_zones {
  std::string_view prefix; // country code + national number digits
  std::string_view zones;  // IANA names separated by '|'
};

// Sorted by prefix; generated at build time from python3-phonenumbers
// (src/domain/CMakeLists.txt, scripts/lib/phone_time_zones.py).
constexpr prefix_zones table[] = {
#include "phone_time_zones_data.inc"
};

static_assert(std::is_sorted(std::begin(table), std::end(table),
                             [](const prefix_zones& a, const prefix_zones& b) {
                               return a.prefix < b.prefix;
                             }),
              "the generated table must be sorted for the binary search");

// As libphonenumber's PhoneNumberToTimeZonesMapper.
constexpr std::size_t longest_prefix = 8;

const prefix_zones* find_prefix(std::string_view prefix) noexcept {
  const auto it = std::lower_bound(
      std::begin(table), std::end(table), prefix,
      [](const prefix_zones& entry, std::string_view key) { return entry.prefix < key; });
  return it != std::end(table) && it->prefix == prefix ? it : nullptr;
}

bool is_e164(std::string_view text) noexcept {
  return text.size() >= 2 && text.front() == '+' &&
         std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

std::vector<const date::time_zone*> phone_time_zones(std::string_view e164) {
  std::vector<const date::time_zone*> zones;
  if (!is_e164(e164))
    return zones;
  const std::string_view digits = e164.substr(1);
  for (std::size_t length = std::min(digits.size(), longest_prefix); length > 0; --length) {
    const prefix_zones* entry = find_prefix(digits.substr(0, length));
    if (entry == nullptr)
      continue;
    for (std::size_t start = 0; start <= entry->zones.size();) {
      const std::size_t bar = std::min(entry->zones.find('|', start), entry->zones.size());
      const date::time_zone* zone = nullptr;
      try {
        zone = date::locate_zone(entry->zones.substr(start, bar - start));
      } catch (const std::runtime_error&) {
        // A name this system's tz database lacks: the number's other zones
        // still apply.
      }
      if (zone != nullptr)
        zones.push_back(zone);
      start = bar + 1;
    }
    break;
  }
  return zones;
}

} // namespace vcs::domain
