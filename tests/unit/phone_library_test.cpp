// parse_e164, on an instance of our own, against the singleton's Parse and
// verdicts, over the library's example
// numbers for every region, type and non-geographic calling code, the same
// numbers written with their national prefix, cut short and made longer,
// and random digits after every calling code.
#include "domain/phone_library.hpp"

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

const PhoneNumberUtil& util() {
  return *PhoneNumberUtil::GetInstance();
}

std::string e164(const PhoneNumber& number) {
  std::string text;
  util().Format(number, PhoneNumberUtil::E164, &text);
  return text;
}

// Every field Parse sets.
bool same(const PhoneNumber& a, const PhoneNumber& b) {
  return a.country_code() == b.country_code() && a.national_number() == b.national_number() &&
         a.has_italian_leading_zero() == b.has_italian_leading_zero() &&
         a.italian_leading_zero() == b.italian_leading_zero() &&
         a.has_number_of_leading_zeros() == b.has_number_of_leading_zeros() &&
         a.number_of_leading_zeros() == b.number_of_leading_zeros() &&
         a.has_extension() == b.has_extension() && a.has_raw_input() == b.has_raw_input() &&
         a.has_country_code_source() == b.has_country_code_source() &&
         a.has_preferred_domestic_carrier_code() == b.has_preferred_domestic_carrier_code();
}

// The library's examples of every kind, with the region each belongs to
// ("001" for non-geographic calling codes).
std::vector<std::pair<std::string, std::string>> examples() {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> regions;
  util().GetSupportedRegions(&regions);
  for (const auto& region : regions) {
    PhoneNumber number;
    for (int type = PhoneNumberUtil::FIXED_LINE; type < PhoneNumberUtil::UNKNOWN; ++type)
      if (util().GetExampleNumberForType(
              region, static_cast<PhoneNumberUtil::PhoneNumberType>(type), &number))
        out.emplace_back(e164(number), region);
    if (util().GetInvalidExampleNumber(region, &number))
      out.emplace_back(e164(number), region);
  }
  std::set<int> global;
  util().GetSupportedGlobalNetworkCallingCodes(&global);
  for (int code : global) {
    PhoneNumber number;
    if (util().GetExampleNumberForNonGeoEntity(code, &number))
      out.emplace_back(e164(number), "001");
  }
  return out;
}

// A '+' and 2 to 15 digits, the first not 0: the only input parse_e164 takes.
bool strict_e164(const std::string& text) {
  return text.size() >= 3 && text.size() <= 16 && text[0] == '+' && text[1] != '0' &&
         text.find_first_not_of("0123456789", 1) == std::string::npos;
}

std::vector<std::string> inputs() {
  std::vector<std::string> out;
  for (const auto& [text, region] : examples()) {
    out.push_back(text);
    PhoneNumber number;
    util().Parse(text, "ZZ", &number);
    const auto code = "+" + std::to_string(number.country_code());
    std::string national;
    util().GetNationalSignificantNumber(number, &national);
    std::string prefix;
    util().GetNddPrefixForRegion(region, true, &prefix);
    for (const auto& p : {prefix, std::string{"0"}, std::string{"1"}, std::string{"00"}})
      out.push_back(code + p + national);
    for (std::size_t cut = 1; cut < national.size(); ++cut)
      out.push_back(code + national.substr(0, cut));
    out.push_back(text + "0");
    out.push_back(text + "99");
  }
  std::set<int> codes;
  util().GetSupportedCallingCodes(&codes);
  std::mt19937 random{20261124};
  std::uniform_int_distribution<int> digit{0, 9};
  for (int code : codes)
    for (int n = 0; n < 60; ++n) {
      auto text = "+" + std::to_string(code);
      const auto length = 1 + n % 14;
      for (int i = 0; i < length; ++i)
        text += static_cast<char>('0' + digit(random));
      out.push_back(text);
    }
  // Any digits, most after no calling code at all.
  for (int n = 0; n < 20'000; ++n) {
    std::string text{"+"};
    text += static_cast<char>('1' + digit(random) % 9);
    const auto length = 1 + n % 15;
    for (int i = 1; i < length; ++i)
      text += static_cast<char>('0' + digit(random));
    out.push_back(text);
  }
  std::erase_if(out, [](const std::string& t) { return !strict_e164(t); });
  return out;
}

TEST(e164_parse, gives_what_libphonenumber_parse_gives_for_every_region) {
  const auto all = inputs();
  const vcs::domain::phone_util_lease lease;
  std::map<PhoneNumberUtil::ErrorType, int> errors;
  int parsed = 0;
  for (const auto& text : all) {
    PhoneNumber expected, got;
    const auto want = util().Parse(text, "ZZ", &expected);
    const auto have = vcs::domain::parse_e164(lease, text, got);
    ASSERT_EQ(have, want) << text;
    ++errors[want];
    if (want == PhoneNumberUtil::NO_PARSING_ERROR) {
      ++parsed;
      std::string region;
      util().GetRegionCodeForNumber(expected, &region);
      const auto verdict = lease.verdict_of(got);
      EXPECT_EQ(verdict.region, region) << text;
      EXPECT_EQ(verdict.valid, util().IsValidNumberForRegion(expected, region)) << text;
      EXPECT_TRUE(same(got, expected))
          << text << " parsed as " << e164(got) << " instead of " << e164(expected);
    }
  }
  // The comparison covered the library's data, and failures of each kind.
  std::set<std::string> regions;
  util().GetSupportedRegions(&regions);
  EXPECT_GT(regions.size(), 240u);
  EXPECT_GT(all.size(), 30'000u);
  EXPECT_GT(parsed, 20'000);
  for (auto error : {PhoneNumberUtil::NOT_A_NUMBER, PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR,
                     PhoneNumberUtil::TOO_SHORT_NSN})
    EXPECT_GT(errors[error], 0) << error;
}

// Written with its national prefix after the calling code, a number parses
// to the number without it, as libphonenumber strips it.
TEST(e164_parse, strips_a_national_prefix_as_libphonenumber_does) {
  const vcs::domain::phone_util_lease lease;
  PhoneNumber with, without;
  ASSERT_EQ(vcs::domain::parse_e164(lease, "+4402071838750", with),
            PhoneNumberUtil::NO_PARSING_ERROR);
  ASSERT_EQ(vcs::domain::parse_e164(lease, "+442071838750", without),
            PhoneNumberUtil::NO_PARSING_ERROR);
  EXPECT_TRUE(same(with, without));
  // Italy keeps its leading zero.
  PhoneNumber italian;
  ASSERT_EQ(vcs::domain::parse_e164(lease, "+390236618300", italian),
            PhoneNumberUtil::NO_PARSING_ERROR);
  EXPECT_TRUE(italian.italian_leading_zero());
  EXPECT_EQ(italian.national_number(), 236618300u);
}

// Argentina's national prefix rule rewrites a mobile number written the
// national way (area code, then 15) into its international form, with a 9
// in front, as libphonenumber does.
TEST(e164_parse, rewrites_by_the_national_prefix_transform_rule_as_libphonenumber_does) {
  const vcs::domain::phone_util_lease lease;
  for (const std::string text : {"+54111523456789", "+540111523456789", "+542231554321098"}) {
    PhoneNumber expected, got;
    ASSERT_EQ(util().Parse(text, "ZZ", &expected), PhoneNumberUtil::NO_PARSING_ERROR) << text;
    ASSERT_EQ(vcs::domain::parse_e164(lease, text, got), PhoneNumberUtil::NO_PARSING_ERROR) << text;
    EXPECT_TRUE(same(got, expected)) << text << " parsed as " << e164(got);
    EXPECT_EQ(std::to_string(got.national_number()).front(), '9') << text;
  }
}

// Leases held at once are different instances; a returned one is reused.
TEST(phone_util_lease, callers_at_once_get_instances_of_their_own) {
  const PhoneNumberUtil* first = nullptr;
  {
    const vcs::domain::phone_util_lease a;
    const vcs::domain::phone_util_lease b;
    EXPECT_NE(&*a, &*b);
    EXPECT_NE(&*a, &util());
    first = &*a;
  }
  const vcs::domain::phone_util_lease again;
  EXPECT_EQ(&*again, first);
}

} // namespace
