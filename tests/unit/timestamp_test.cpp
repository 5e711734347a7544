#include "domain/timestamp.hpp"

#include <gtest/gtest.h>

namespace {

using namespace vcs::domain;
using namespace std::chrono_literals;

// 2026-11-21T20:25:26.123456Z, as microseconds since the epoch (computed
// independently with Python's datetime).
const timestamp known{std::chrono::microseconds{1795292726123456}};
const timestamp known_second = known - 123456us;

TEST(Timestamp, FormatsTheThreeSpecStyles) {
  EXPECT_EQ(format_utc(known), "2026-11-21T20:25:26.123456Z");
  EXPECT_EQ(format_offset(known), "2026-11-21T20:25:26.123456+00:00");
  EXPECT_EQ(format_billing(known), "2026-11-21T20:25:26");
}

TEST(Timestamp, KeepsSixFractionalDigitsOnWholeSeconds) {
  EXPECT_EQ(format_utc(known_second), "2026-11-21T20:25:26.000000Z");
  EXPECT_EQ(format_offset(known_second), "2026-11-21T20:25:26.000000+00:00");
}

TEST(Timestamp, BillingTruncatesInsteadOfRounding) {
  EXPECT_EQ(format_billing(known_second + 999999us), "2026-11-21T20:25:26");
}

TEST(Timestamp, FormatsForPostgresAndParsesBack) {
  EXPECT_EQ(to_pg_timestamp(known), "2026-11-21 20:25:26.123456+00");
  EXPECT_EQ(parse_pg_timestamp(to_pg_timestamp(known)), known);
}

TEST(Timestamp, ParsesPostgresOutput) {
  EXPECT_EQ(parse_pg_timestamp("2026-11-21 20:25:26.123456+00"), known);
  EXPECT_EQ(parse_pg_timestamp("2026-11-21 20:25:26+00"), known_second);
  EXPECT_EQ(parse_pg_timestamp("2026-11-21 20:25:26+00:00"), known_second);
  EXPECT_EQ(parse_pg_timestamp("2026-11-21 20:25:26.5+05:30"), known_second + 500ms - 5h - 30min);
  EXPECT_EQ(parse_pg_timestamp("2026-11-21 17:25:26.123456-03"), known);
  // The offset moves the instant across midnight.
  EXPECT_EQ(parse_pg_timestamp("2026-11-22 01:55:26.123456+05:30"), known);
}

TEST(Timestamp, RejectsMalformedPostgresText) {
  const char* texts[] = {
      "",
      "2026-11-21 20:25:26",         // no offset
      "2026-11-21T20:25:26+00",      // ISO separator
      "2026-11-21 20:25:26.+00",     // empty fraction
      "2026-11-21 20:25:26+0",       // short offset
      "2026-11-21 20:25:26+00:3",    // short offset minutes
      "2026-11-21 20:25:26+00 junk", // trailing text
      "2026-02-30 20:25:26+00",      // no such day
      "infinity",
  };
  for (const char* text : texts)
    EXPECT_EQ(parse_pg_timestamp(text), std::nullopt) << '"' << text << '"';
}

TEST(Timestamp, ParsesIsoVariants) {
  EXPECT_EQ(parse_iso8601("2026-11-21T20:25:26.123456Z"), known);
  EXPECT_EQ(parse_iso8601("2026-11-21 20:25:26.123456Z"), known);
  EXPECT_EQ(parse_iso8601("2026-11-21T20:25:26.123456"), known);
  EXPECT_EQ(parse_iso8601("2026-11-21T20:25:26.123456+00:00"), known);
  EXPECT_EQ(parse_iso8601("2026-11-21T22:25:26.123456+02:00"), known);
  EXPECT_EQ(parse_iso8601("2026-11-21T15:55:26.123456-04:30"), known);
  EXPECT_EQ(parse_iso8601("2026-11-21T20:25:26Z"), known_second);
  EXPECT_EQ(parse_iso8601("2026-11-21T20:25:26.123Z"), known_second + 123ms);
  // Digits beyond microseconds are dropped, not rounded.
  EXPECT_EQ(parse_iso8601("2026-11-21T20:25:26.123456999Z"), known);
  EXPECT_EQ(parse_iso8601("2026-11-21"), known_second - 20h - 25min - 26s);
  EXPECT_EQ(format_utc(*parse_iso8601("2028-02-29")), "2028-02-29T00:00:00.000000Z");
  // The first and the last instant of years 1 to 9999.
  EXPECT_EQ(format_utc(*parse_iso8601("0001-01-01T01:00:00+01:00")), "0001-01-01T00:00:00.000000Z");
  EXPECT_EQ(format_utc(*parse_iso8601("9999-12-31T23:59:59.999999Z")),
            "9999-12-31T23:59:59.999999Z");
}

TEST(Timestamp, RejectsMalformedIso) {
  const char* texts[] = {
      "",
      "garbage",
      "2026-13-01",                // month 13
      "2026-00-10",                // month 0
      "2026-02-30",                // Feb 30
      "2027-02-29",                // not a leap year
      "2026-11-21T24:00:00Z",      // hour 24
      "2026-11-21T20:60:00Z",      // minute 60
      "2026-11-21T20:25:60Z",      // second 60
      "2026-11-21T20:25Z",         // no seconds
      "2026-11-21T20:25:26.Z",     // empty fraction
      "2026-11-21T",               // separator without time
      "2026-11-21T20:25:26+0530",  // offset without colon
      "2026-11-21T20:25:26Zjunk",  // trailing text
      "2026-11-21t20:25:26Z",      // lower-case separator
      "2026-1-21",                 // single-digit month
      "26-11-21",                  // two-digit year
      "2026/11/21",                // wrong date separator
      " 2026-11-21",               // leading space
      "0000-01-01",                // year 0
      "0001-01-01T00:00:00+01:00", // year 0 once the offset is applied
      "9999-12-31T23:00:00-05:00", // year 10000 once the offset is applied
  };
  for (const char* text : texts)
    EXPECT_EQ(parse_iso8601(text), std::nullopt) << '"' << text << '"';
}

// An instant needs its zone: without one its meaning depends on the reader.
TEST(Timestamp, AnInstantNeedsItsZone) {
  const auto ten = parse_iso8601("2028-01-01T10:00:00Z");
  ASSERT_TRUE(ten);
  EXPECT_EQ(parse_iso8601_instant("2028-01-01T10:00:00Z"), ten);
  EXPECT_EQ(parse_iso8601_instant("2028-01-01T15:30:00+05:30"), ten);
  EXPECT_EQ(parse_iso8601_instant("2028-01-01T02:00:00-08:00"), ten);
  for (const char* text : {"2028-01-01T10:00:00", "2028-01-01", "2028-01-01T10:00",
                           "2028-01-01T10:00:00.123456", "2028-01-01T10:00:00+0500", "Z"})
    EXPECT_EQ(parse_iso8601_instant(text), std::nullopt) << '"' << text << '"';
}

TEST(Timestamp, NowIsCurrentTime) {
  const auto before = std::chrono::system_clock::now();
  const timestamp t = now();
  const auto after = std::chrono::system_clock::now();
  EXPECT_GE(t, std::chrono::floor<std::chrono::microseconds>(before));
  EXPECT_LE(t, after);
}

} // namespace
