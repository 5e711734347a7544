#pragma once

#include <string_view>
#include <vector>

#include <date/tz.h>

namespace vcs::domain {

// The time zones a phone number may be in, from libphonenumber's prefix
// data (as its Java PhoneNumberToTimeZonesMapper): `e164` is "+" then
// digits; the longest known prefix of country code + national number (at
// most 8 digits) wins. A prefix may map to several zones (e.g. +1 800,
// which only matches "1", maps to every +1 zone). Zone names the tz
// database does not know are skipped. Empty when the number is malformed
// or no prefix is known. Thread-safe; allocates only the result.
std::vector<const date::time_zone*> phone_time_zones(std::string_view e164);

} // namespace vcs::domain
