#include "domain/callee.hpp"

#include "domain/lead.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace vcs::domain {

namespace {

struct subdivision {
  std::string_view country;
  std::string_view code;
  std::string_view name;
};

// ISO 3166-2:US (states and the District) and ISO 3166-2:CA. Geography,
// not law: the rules themselves are data (data/calling_rules/rules.json).
constexpr subdivision subdivisions[] = {
    {"US", "AL", "Alabama"},
    {"US", "AK", "Alaska"},
    {"US", "AZ", "Arizona"},
    {"US", "AR", "Arkansas"},
    {"US", "CA", "California"},
    {"US", "CO", "Colorado"},
    {"US", "CT", "Connecticut"},
    {"US", "DE", "Delaware"},
    {"US", "DC", "District of Columbia"},
    {"US", "FL", "Florida"},
    {"US", "GA", "Georgia"},
    {"US", "HI", "Hawaii"},
    {"US", "ID", "Idaho"},
    {"US", "IL", "Illinois"},
    {"US", "IN", "Indiana"},
    {"US", "IA", "Iowa"},
    {"US", "KS", "Kansas"},
    {"US", "KY", "Kentucky"},
    {"US", "LA", "Louisiana"},
    {"US", "ME", "Maine"},
    {"US", "MD", "Maryland"},
    {"US", "MA", "Massachusetts"},
    {"US", "MI", "Michigan"},
    {"US", "MN", "Minnesota"},
    {"US", "MS", "Mississippi"},
    {"US", "MO", "Missouri"},
    {"US", "MT", "Montana"},
    {"US", "NE", "Nebraska"},
    {"US", "NV", "Nevada"},
    {"US", "NH", "New Hampshire"},
    {"US", "NJ", "New Jersey"},
    {"US", "NM", "New Mexico"},
    {"US", "NY", "New York"},
    {"US", "NC", "North Carolina"},
    {"US", "ND", "North Dakota"},
    {"US", "OH", "Ohio"},
    {"US", "OK", "Oklahoma"},
    {"US", "OR", "Oregon"},
    {"US", "PA", "Pennsylvania"},
    {"US", "RI", "Rhode Island"},
    {"US", "SC", "South Carolina"},
    {"US", "SD", "South Dakota"},
    {"US", "TN", "Tennessee"},
    {"US", "TX", "Texas"},
    {"US", "UT", "Utah"},
    {"US", "VT", "Vermont"},
    {"US", "VA", "Virginia"},
    {"US", "WA", "Washington"},
    {"US", "WV", "West Virginia"},
    {"US", "WI", "Wisconsin"},
    {"US", "WY", "Wyoming"},
    {"CA", "AB", "Alberta"},
    {"CA", "BC", "British Columbia"},
    {"CA", "MB", "Manitoba"},
    {"CA", "NB", "New Brunswick"},
    {"CA", "NL", "Newfoundland and Labrador"},
    {"CA", "NS", "Nova Scotia"},
    {"CA", "NT", "Northwest Territories"},
    {"CA", "NU", "Nunavut"},
    {"CA", "ON", "Ontario"},
    {"CA", "PE", "Prince Edward Island"},
    {"CA", "QC", "Quebec"},
    {"CA", "SK", "Saskatchewan"},
    {"CA", "YT", "Yukon"},
};

// NANP territories with their own libphonenumber region: US law applies.
constexpr std::array<std::string_view, 5> us_territories{"PR", "VI", "GU", "AS", "MP"};

// The first letter of a Canadian postal code names its province (Canada
// Post's forward sortation areas); X is shared by two territories.
struct postal_letter {
  char letter;
  std::string_view regions;
};
constexpr postal_letter postal_letters[] = {
    {'A', "NL"}, {'B', "NS"}, {'C', "PE"}, {'E', "NB"}, {'G', "QC"},    {'H', "QC"},
    {'J', "QC"}, {'K', "ON"}, {'L', "ON"}, {'M', "ON"}, {'N', "ON"},    {'P', "ON"},
    {'R', "MB"}, {'S', "SK"}, {'T', "AB"}, {'V', "BC"}, {'X', "NT NU"}, {'Y', "YT"},
};

std::string folded(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  const auto last = text.find_last_not_of(" \t");
  std::string out;
  if (first == std::string_view::npos)
    return out;
  for (char c : text.substr(first, last - first + 1))
    out.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  return out;
}

const subdivision* named(std::string_view text) {
  auto key = folded(text);
  if (key.size() == 5 && (key.starts_with("US-") || key.starts_with("CA-")))
    key = key.substr(3);
  for (const auto& s : subdivisions)
    if (key == s.code || key == folded(s.name))
      return &s;
  return nullptr;
}

bool from_postal_code(std::string_view text, callee& out) {
  const auto key = folded(text);
  // A1A 1A1 or A1A1A1.
  if (key.size() < 6 || !std::isalpha(static_cast<unsigned char>(key[0])) ||
      !std::isdigit(static_cast<unsigned char>(key[1])))
    return false;
  for (const auto& p : postal_letters)
    if (p.letter == key[0]) {
      out.country = "CA";
      for (std::size_t at = 0; at < p.regions.size(); at += 3)
        out.regions.emplace_back(p.regions.substr(at, 2));
      out.region_given = true;
      return true;
    }
  return false;
}

} // namespace

callee callee_of(std::string_view phone_e164, std::optional<std::string_view> state,
                 std::optional<std::string_view> postal_code) {
  callee out;
  if (state)
    if (const auto* s = named(*state)) {
      out.country = s->country;
      out.regions.emplace_back(s->code);
      out.region_given = true;
      return out;
    }
  if (postal_code && from_postal_code(*postal_code, out))
    return out;
  auto region = check_phone(phone_e164).region;
  if (std::find(us_territories.begin(), us_territories.end(), region) != us_territories.end()) {
    out.country = "US";
    out.regions.push_back(std::move(region));
    return out;
  }
  out.country = std::move(region);
  return out;
}

std::string place_text(const callee& c) {
  if (c.regions.size() == 1)
    return c.country + "-" + c.regions.front();
  return c.country;
}

} // namespace vcs::domain
