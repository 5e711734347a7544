#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

// Where a called person may be, as far as the calling rules tell places
// apart: a country and the subdivisions (states, provinces) within it.
struct callee {
  std::string country; // ISO 3166-1 alpha-2; empty when unknown
  // ISO 3166-2 subdivision codes without the country ("FL"). Empty: the
  // place within the country is not known, so every subdivision's rules
  // are candidates and the strictest applies.
  std::vector<std::string> regions;
  // The subdivision came from the lead's own fields, not from its number.
  bool region_given = false;
};

// The place of a lead. The lead's own fields come first: `state` (a US
// state or Canadian province as its code, "FL" or "US-FL", or its English
// name) and `postal_code` (a Canadian postal code's first letter names
// its province; a US ZIP code is not read). Otherwise the number tells the
// country (libphonenumber), and a NANP territory (Puerto Rico, Guam, …)
// as a subdivision of the US. A NANP number cannot be told mobile from
// fixed line, and a mobile keeps its area code when its owner moves, so
// the number alone never places a lead in a state or province.
callee callee_of(std::string_view phone_e164, std::optional<std::string_view> state,
                 std::optional<std::string_view> postal_code);

// "US", "US-FL", or "" when unknown: for explanations.
std::string place_text(const callee& c);

} // namespace vcs::domain
