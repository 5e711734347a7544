#include "domain/lead.hpp"

#include <string>

#include <gtest/gtest.h>

namespace {

using vcs::domain::check_phone;
using vcs::domain::is_email;

TEST(LeadPhone, ValidNumbersCarryTheirRegion) {
  const struct {
    const char* number;
    const char* region;
  } cases[] = {
      {"+14155552671", "US"},
      {"+442071838750", "GB"},
      {"+4930123456", "DE"},
      {"+919876543210", "IN"},
      {"+33612345678", "FR"},
      {"+81312345678", "JP"},
      {"+5511987654321", "BR"},
      {"+61291234567", "AU"},
      // A crown dependency shares +44 with GB but is its own region.
      {"+447911123456", "GG"},
  };
  for (const auto& c : cases) {
    const auto check = check_phone(c.number);
    EXPECT_TRUE(check.well_formed) << c.number;
    EXPECT_TRUE(check.valid) << c.number;
    EXPECT_EQ(check.invalid_reason, "") << c.number;
    EXPECT_EQ(check.region, c.region) << c.number;
  }
}

TEST(LeadPhone, NonGeographicNumberIsValidWithoutRegion) {
  // libphonenumber's "001" pseudo-region is not an ISO 3166 code.
  const auto check = check_phone("+80012345678");
  EXPECT_TRUE(check.well_formed);
  EXPECT_TRUE(check.valid);
  EXPECT_EQ(check.region, "");
}

TEST(LeadPhone, WellFormedButInvalidNumbersAreFlaggedWithAReason) {
  const struct {
    const char* number;
    const char* reason;
    const char* region;
  } cases[] = {
      {"+999123456789", "Unknown country calling code", ""},
      {"+990123", "Unknown country calling code", ""},
      // Too few digits for libphonenumber to treat the text as a number.
      {"+12", "Not a viable phone number", ""},
      {"+882", "National number too short", ""},
      // The region of an invalid number under a shared calling code (+1, +44)
      // cannot be told, so the reason names none.
      {"+1555", "Not a valid number", ""},
      {"+15555555555", "Not a valid number", ""},
      {"+44123", "Not a valid number", ""},
      // A calling code of a single region names it.
      {"+4912", "Not a valid number for region DE", "DE"},
      {"+3312", "Not a valid number for region FR", "FR"},
  };
  for (const auto& c : cases) {
    const auto check = check_phone(c.number);
    EXPECT_TRUE(check.well_formed) << c.number;
    EXPECT_FALSE(check.valid) << c.number;
    EXPECT_EQ(check.invalid_reason, c.reason) << c.number;
    EXPECT_EQ(check.region, c.region) << c.number;
  }
}

TEST(LeadPhone, NotWellFormedIsRejectedOutright) {
  for (const char* text : {"", "+", "+1", "14155552671", "+0123", "+1 415 555 2671", "+1-415",
                           "+(1)4155552671", "+1234567890123456", "++1415", "+1415555267a",
                           " +14155552671", "+14155552671 ", "+14155552671\n",
                           "\xEF\xBC\x8B"
                           "14155552671"}) {
    const auto check = check_phone(text);
    EXPECT_FALSE(check.well_formed) << '"' << text << '"';
    EXPECT_FALSE(check.valid) << '"' << text << '"';
    EXPECT_EQ(check.invalid_reason, "") << '"' << text << '"';
    EXPECT_EQ(check.region, "") << '"' << text << '"';
  }
}

TEST(LeadPhone, FifteenDigitsAreWellFormedSixteenAreNot) {
  EXPECT_TRUE(check_phone("+123456789012345").well_formed);
  EXPECT_FALSE(check_phone("+1234567890123456").well_formed);
}

TEST(LeadPhone, EmbeddedNulIsNotWellFormed) {
  using namespace std::string_literals;
  EXPECT_FALSE(check_phone("+1415\0"s
                           "5552671"s)
                   .well_formed);
}

// local@domain where the domain is padded with one long label to `length`.
std::string email_of_length(std::size_t local_length, std::size_t length) {
  const std::string local(local_length, 'l');
  const std::string tld = ".com";
  return local + "@" + std::string(length - local_length - 1 - tld.size(), 'd') + tld;
}

TEST(LeadEmail, AcceptsPragmaticAddresses) {
  for (const char* text :
       {"user@example.com", "a@b.io", "first.last+tag@sub.example.co.uk", "x_y@my-host.example.org",
        "UPPER@EXAMPLE.COM", "user@123.example.com", "o'brien@example.ie",
        "jos\xC3\xA9@example.com", "user@xn--bcher-kva.example"}) {
    EXPECT_TRUE(is_email(text)) << text;
  }
}

TEST(LeadEmail, RejectsMalformedAddresses) {
  for (const char* text : {
           "",
           "userexample.com",      // no @
           "a@b@example.com",      // two @
           "@example.com",         // empty local part
           "user@",                // empty domain
           "user@localhost",       // no dot in the domain
           "user@-example.com",    // label starts with '-'
           "user@example-.com",    // label ends with '-'
           "user@.example.com",    // empty label
           "user@example..com",    // empty label
           "user@example.com.",    // trailing dot
           "user@example.c",       // one-letter top-level label
           "user@example.c0m",     // digit in the top-level label
           "user@example.123",     // numeric top-level label
           "user@exa_mple.com",    // '_' in a domain label
           "us er@example.com",    // space in the local part
           " user@example.com",    // leading space
           "user@example.com ",    // trailing space
           "user@exam ple.com",    // space in the domain
           "user\t@example.com",   // control character
           "user\x7F@example.com", // DEL
           "user@b\xC3\xBC"
           "cher.example", // non-ASCII domain (IDNs go as punycode)
       }) {
    EXPECT_FALSE(is_email(text)) << '"' << text << '"';
  }
}

TEST(LeadEmail, LocalPartIsAtMost64Characters) {
  EXPECT_TRUE(is_email(std::string(64, 'l') + "@example.com"));
  EXPECT_FALSE(is_email(std::string(65, 'l') + "@example.com"));
}

TEST(LeadEmail, AtMost254CharactersInTotal) {
  const auto longest = email_of_length(64, 254);
  ASSERT_EQ(longest.size(), 254u);
  EXPECT_TRUE(is_email(longest));
  const auto too_long = email_of_length(64, 255);
  ASSERT_EQ(too_long.size(), 255u);
  EXPECT_FALSE(is_email(too_long));
}

} // namespace
