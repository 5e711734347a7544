#include "domain/lead.hpp"

#include "domain/phone_library.hpp"

#include <algorithm>

namespace vcs::domain {
namespace {

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

constexpr std::size_t e164_min_digits = 2;
constexpr std::size_t e164_max_digits = 15;
constexpr std::size_t email_local_max_length = 64;

constexpr bool is_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}

constexpr bool is_letter(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool is_e164(std::string_view text) noexcept {
  if (text.size() < 1 + e164_min_digits || text.size() > 1 + e164_max_digits)
    return false;
  if (text[0] != '+' || text[1] == '0')
    return false;
  return std::all_of(text.begin() + 1, text.end(), is_digit);
}

const char* parse_error_reason(PhoneNumberUtil::ErrorType error) noexcept {
  switch (error) {
  case PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR:
    return "Unknown country calling code";
  case PhoneNumberUtil::TOO_SHORT_AFTER_IDD:
    return "Too short to hold a country calling code";
  case PhoneNumberUtil::TOO_SHORT_NSN:
    return "National number too short";
  case PhoneNumberUtil::TOO_LONG_NSN:
    return "National number too long";
  case PhoneNumberUtil::NOT_A_NUMBER:
  case PhoneNumberUtil::NO_PARSING_ERROR:
    break;
  }
  return "Not a viable phone number";
}

// libphonenumber answers "ZZ" when it cannot tell the region (an invalid
// number under a calling code shared by several regions) and "001" for
// non-geographic numbers (+800, +882, ...); neither is an ISO 3166 region.

// A domain label: letters, digits and '-', with no '-' at either edge.
bool is_domain_label(std::string_view label) noexcept {
  if (label.empty() || label.front() == '-' || label.back() == '-')
    return false;
  return std::all_of(label.begin(), label.end(),
                     [](char c) { return is_letter(c) || is_digit(c) || c == '-'; });
}

} // namespace

phone_check check_phone(std::string_view text) {
  phone_check result;
  if (!is_e164(text))
    return result;
  result.well_formed = true;

  const phone_util_lease util;
  PhoneNumber number;
  const auto error = parse_e164(util, text, number);
  if (error != PhoneNumberUtil::NO_PARSING_ERROR) {
    result.invalid_reason = parse_error_reason(error);
    return result;
  }
  auto [region, valid] = util.verdict_of(number);
  result.valid = valid;
  if (region != "ZZ" && region != "001")
    result.region = std::move(region);
  if (!result.valid) {
    result.invalid_reason = "Not a valid number";
    if (!result.region.empty())
      result.invalid_reason += " for region " + result.region;
  }
  return result;
}

bool is_email(std::string_view text) noexcept {
  if (text.size() > lead_email_max_length)
    return false;
  const auto at = text.find('@');
  if (at == std::string_view::npos || text.find('@', at + 1) != std::string_view::npos)
    return false;

  const auto local = text.substr(0, at);
  if (local.empty() || local.size() > email_local_max_length)
    return false;
  // Spaces and control characters (including DEL); bytes of UTF-8 text pass.
  if (std::any_of(local.begin(), local.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte <= 0x20 || byte == 0x7F;
      }))
    return false;

  const auto domain = text.substr(at + 1);
  const auto last_dot = domain.rfind('.');
  if (last_dot == std::string_view::npos)
    return false;
  for (std::size_t begin = 0; begin <= domain.size();) {
    const auto end = std::min(domain.find('.', begin), domain.size());
    if (!is_domain_label(domain.substr(begin, end - begin)))
      return false;
    begin = end + 1;
  }
  const auto tld = domain.substr(last_dot + 1);
  return tld.size() >= 2 && std::all_of(tld.begin(), tld.end(), is_letter);
}

} // namespace vcs::domain
