#include "domain/campaign.hpp"

#include "domain/global_id.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

using namespace vcs::domain;

// A create body in which every field is given and valid.
campaign_fields valid_fields() {
  campaign_fields f;
  f.name = "Spring outreach";
  f.type = "OUTBOUND";
  f.assistant_id = "asst_123";
  f.voice_provider_id = 7;
  f.dialer_type = "POOL";
  f.provider_a_calling_entity = "ASSISTANT";
  f.phone_number_id = "pn_456";
  f.phone_number_pool_id = encode_global_id(entity::phone_number_pool, 3);
  f.start_date = "2026-03-01";
  f.end_date = "2026-03-31";
  f.timezone = "Europe/Berlin";
  f.days_of_week = std::vector<std::string>{"MONDAY", "WEDNESDAY", "FRIDAY"};
  f.daily_start_time = "09:00";
  f.daily_end_time = "17:30";
  f.max_call_attempts = 5;
  f.max_daily_attempts = 2;
  f.min_gap_between_attempts = 60;
  f.consider_voicemail_as_answered = true;
  f.webhook_url = "https://example.com/hooks/campaign";
  return f;
}

field_errors validate(const campaign_fields& f, bool creating = true) {
  field_errors errors;
  validate_campaign(f, creating, errors);
  return errors;
}

std::vector<std::string> fields_with_errors(const field_errors& errors) {
  std::vector<std::string> names;
  for (const auto& [field, messages] : errors.entries())
    names.push_back(field);
  return names;
}

std::vector<std::string> messages_for(const field_errors& errors, const std::string& field) {
  for (const auto& [name, messages] : errors.entries())
    if (name == field)
      return messages;
  return {};
}

using strings = std::vector<std::string>;

// Validates `f` and expects exactly `messages` under `field` and nothing else.
void expect_only(const campaign_fields& f, const std::string& field, const strings& messages,
                 bool creating = true) {
  const auto errors = validate(f, creating);
  EXPECT_EQ(fields_with_errors(errors), strings{field});
  EXPECT_EQ(messages_for(errors, field), messages);
}

// ---- whole body ------------------------------------------------------------

TEST(CampaignValidation, FullValidBodyHasNoErrors) {
  EXPECT_TRUE(validate(valid_fields()).empty());
  EXPECT_TRUE(validate(valid_fields(), false).empty());
}

TEST(CampaignValidation, NameIsRequiredOnCreateOnly) {
  campaign_fields f = valid_fields();
  f.name.reset();
  expect_only(f, "name", {"This field is required."});
  EXPECT_TRUE(validate(f, false).empty());
  EXPECT_TRUE(validate(campaign_fields{}, false).empty());
  expect_only(campaign_fields{}, "name", {"This field is required."});
}

TEST(CampaignValidation, ErrorsOfSeveralFieldsAreAllReported) {
  campaign_fields f = valid_fields();
  f.type = "BOTH";
  f.timezone = "Mars/Base";
  f.max_call_attempts = 0;
  EXPECT_EQ(fields_with_errors(validate(f)), (strings{"type", "timezone", "max_call_attempts"}));
}

// ---- text fields -----------------------------------------------------------

TEST(CampaignValidation, NameMayNotBeBlank) {
  for (const char* blank : {"", " ", "\t\n "}) {
    campaign_fields f = valid_fields();
    f.name = blank;
    expect_only(f, "name", {"This field may not be blank."});
    expect_only(f, "name", {"This field may not be blank."}, false);
  }
}

TEST(CampaignValidation, NameLengthIsCountedInCharacters) {
  campaign_fields f = valid_fields();
  f.name = std::string(255, 'a');
  EXPECT_TRUE(validate(f).empty());
  f.name = std::string(256, 'a');
  expect_only(f, "name", {"Ensure this field has no more than 255 characters."});
  // 255 two-byte characters are 510 bytes but still 255 characters.
  std::string umlauts;
  for (int i = 0; i < 255; ++i)
    umlauts += "\xC3\xBC";
  f.name = umlauts;
  EXPECT_TRUE(validate(f).empty());
}

TEST(CampaignValidation, ProviderIdsMayNotBeBlankOrTooLong) {
  for (const std::string field : {"assistant_id", "phone_number_id"}) {
    auto with = [&](std::string value) {
      campaign_fields f = valid_fields();
      (field == "assistant_id" ? f.assistant_id : f.phone_number_id) = std::move(value);
      return f;
    };
    expect_only(with(""), field, {"This field may not be blank."});
    expect_only(with("   "), field, {"This field may not be blank."});
    expect_only(with(std::string(256, 'x')), field,
                {"Ensure this field has no more than 255 characters."});
    EXPECT_TRUE(validate(with(std::string(255, 'x'))).empty()) << field;
  }
}

TEST(CampaignValidation, PhoneNumberPoolIdMustBeAPoolGlobalId) {
  campaign_fields f = valid_fields();
  for (const std::string& bad : {std::string{"3"}, std::string{""}, std::string{"garbage"},
                                 encode_global_id(entity::campaign, 3)}) {
    f.phone_number_pool_id = bad;
    expect_only(f, "phone_number_pool_id", {"Enter a valid phone number pool id."});
  }
}

// ---- choices ---------------------------------------------------------------

TEST(CampaignValidation, TypeIsOutboundOrInbound) {
  campaign_fields f = valid_fields();
  f.type = "INBOUND";
  EXPECT_TRUE(validate(f).empty());
  for (const char* bad : {"outbound", "", "BOTH", "OUTBOUND "}) {
    f.type = bad;
    expect_only(f, "type", {"Must be one of OUTBOUND, INBOUND."});
  }
}

TEST(CampaignValidation, DialerTypeIsSingleOrPool) {
  campaign_fields f = valid_fields();
  f.dialer_type = "SINGLE";
  EXPECT_TRUE(validate(f).empty());
  f.dialer_type = "single";
  expect_only(f, "dialer_type", {"Must be one of SINGLE, POOL."});
}

TEST(CampaignValidation, CallingEntityIsAssistantWorkflowOrSquad) {
  campaign_fields f = valid_fields();
  for (const char* good : {"ASSISTANT", "WORKFLOW", "SQUAD"}) {
    f.provider_a_calling_entity = good;
    EXPECT_TRUE(validate(f).empty()) << good;
  }
  f.provider_a_calling_entity = "AGENT";
  expect_only(f, "provider_a_calling_entity", {"Must be one of ASSISTANT, WORKFLOW, SQUAD."});
}

// ---- dates -------------------------------------------------------------------

TEST(CampaignValidation, DatesMustBeCalendarDates) {
  for (const std::string field : {"start_date", "end_date"}) {
    campaign_fields f = valid_fields();
    (field == "start_date" ? f.start_date : f.end_date) = "2026-02-30";
    expect_only(f, field, {"Enter a valid date in YYYY-MM-DD format."});
  }
}

TEST(CampaignValidation, EndDateMayNotPrecedeStartDate) {
  campaign_fields f = valid_fields();
  f.start_date = "2026-03-10";
  f.end_date = "2026-03-09";
  expect_only(f, "end_date", {"End date cannot be before start date."});
  f.end_date = "2026-03-10"; // a one-day campaign
  EXPECT_TRUE(validate(f).empty());
  f.start_date = "2025-12-31";
  f.end_date = "2026-01-01";
  EXPECT_TRUE(validate(f).empty());
}

TEST(CampaignValidation, DateOrderIsOnlyCheckedWhenBothDatesAreGivenAndValid) {
  campaign_fields f = valid_fields();
  f.start_date.reset();
  f.end_date = "1999-01-01";
  EXPECT_TRUE(validate(f).empty());
  f.start_date = "not a date";
  expect_only(f, "start_date", {"Enter a valid date in YYYY-MM-DD format."});
}

TEST(CalendarDate, AcceptsRealDates) {
  for (const char* good :
       {"2026-01-01", "2026-12-31", "2024-02-29", "2000-02-29", "1900-01-01", "9999-12-31"})
    EXPECT_TRUE(is_calendar_date(good)) << good;
}

TEST(CalendarDate, LeapDayOnlyInLeapYears) {
  EXPECT_TRUE(is_calendar_date("2024-02-29"));
  EXPECT_TRUE(is_calendar_date("2000-02-29")); // divisible by 400
  EXPECT_FALSE(is_calendar_date("2025-02-29"));
  EXPECT_FALSE(is_calendar_date("1900-02-29")); // divisible by 100, not 400
  EXPECT_FALSE(is_calendar_date("2100-02-29"));
}

TEST(CalendarDate, RejectsOtherShapesAndImpossibleDates) {
  for (const char* bad :
       {"", "2026-1-01", "2026-01-1", "26-01-01", "2026/01/01", "2026-01-01 ", " 2026-01-01",
        "2026-01-01T00:00", "2026-00-10", "2026-13-01", "2026-01-00", "2026-01-32", "2026-04-31",
        "1899-12-31", "+026-01-01", "2026-+1-01", "abcd-ef-gh", "20260101"})
    EXPECT_FALSE(is_calendar_date(bad)) << '"' << bad << '"';
}

// ---- schedule ----------------------------------------------------------------

TEST(TimeZone, KnowsIanaNames) {
  for (const char* good : {"Europe/Berlin", "America/New_York", "UTC", "Asia/Kolkata",
                           "America/Argentina/Buenos_Aires"})
    EXPECT_TRUE(is_iana_zone(good)) << good;
}

TEST(TimeZone, RejectsUnknownNamesAndPathTricks) {
  for (const char* bad :
       {"Mars/Base", "", "../etc/passwd", "/etc/passwd", "Europe/../UTC", "europe/berlin", "Europe",
        "Europe/Berlin ", "localtime", "zone.tab", "posix/Europe/Berlin"})
    EXPECT_FALSE(is_iana_zone(bad)) << '"' << bad << '"';
}

TEST(CampaignValidation, TimezoneMustBeKnown) {
  campaign_fields f = valid_fields();
  for (const char* bad : {"Mars/Base", "", "../etc/passwd"}) {
    f.timezone = bad;
    expect_only(f, "timezone", {"Unknown time zone."});
  }
}

TEST(CampaignValidation, DaysOfWeekAreUpperCaseDayNames) {
  campaign_fields f = valid_fields();
  f.days_of_week =
      strings{"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"};
  EXPECT_TRUE(validate(f).empty());
  const std::string message = "Must be a non-empty list of upper-case day names (MONDAY..SUNDAY).";
  for (const strings& bad :
       {strings{}, strings{"monday"}, strings{"MONDAY", "FUNDAY"}, strings{"MON"}, strings{""}}) {
    f.days_of_week = bad;
    expect_only(f, "days_of_week", {message});
  }
}

TEST(CampaignValidation, DuplicateDaysAreNamedOnce) {
  campaign_fields f = valid_fields();
  f.days_of_week = strings{"MONDAY", "FRIDAY", "MONDAY", "MONDAY", "FRIDAY"};
  expect_only(f, "days_of_week", {"Duplicate day: MONDAY.", "Duplicate day: FRIDAY."});
}

TEST(ClockTime, AcceptsTwentyFourHourTimes) {
  for (const char* good : {"00:00", "09:05", "12:30", "23:59"})
    EXPECT_TRUE(is_clock_time(good)) << good;
}

TEST(ClockTime, RejectsOtherShapes) {
  for (const char* bad : {"24:00", "23:60", "9:00", "09:0", "0900", "09:00:00", "09-00", "",
                          " 9:00", "-1:00", "09:+5", "ab:cd", "9:00 "})
    EXPECT_FALSE(is_clock_time(bad)) << '"' << bad << '"';
}

TEST(CampaignValidation, DailyTimesMustBeClockTimes) {
  for (const std::string field : {"daily_start_time", "daily_end_time"}) {
    campaign_fields f = valid_fields();
    (field == "daily_start_time" ? f.daily_start_time : f.daily_end_time) = "24:00";
    expect_only(f, field, {"Enter a valid time in HH:MM (24-hour) format."});
  }
}

TEST(CampaignValidation, DailyEndMustFollowDailyStart) {
  campaign_fields f = valid_fields();
  f.daily_start_time = "10:00";
  f.daily_end_time = "10:00";
  expect_only(f, "daily_end_time", {"Daily end time must be after daily start time."});
  f.daily_end_time = "09:59";
  expect_only(f, "daily_end_time", {"Daily end time must be after daily start time."});
  f.daily_end_time = "10:01";
  EXPECT_TRUE(validate(f).empty());
  f.daily_start_time.reset(); // order is only checked when both are given
  f.daily_end_time = "00:00";
  EXPECT_TRUE(validate(f).empty());
}

// ---- attempts ------------------------------------------------------------------

TEST(CampaignValidation, MaxCallAttemptsBetween1And100) {
  campaign_fields f = valid_fields();
  f.max_daily_attempts.reset();
  for (const int32_t good : {1, 100}) {
    f.max_call_attempts = good;
    EXPECT_TRUE(validate(f).empty()) << good;
  }
  for (const int32_t bad : {0, -1, 101}) {
    f.max_call_attempts = bad;
    expect_only(f, "max_call_attempts", {"Must be between 1 and 100."});
  }
}

TEST(CampaignValidation, MaxDailyAttemptsBetween1And24) {
  campaign_fields f = valid_fields();
  f.max_call_attempts.reset();
  for (const int32_t good : {1, 24}) {
    f.max_daily_attempts = good;
    EXPECT_TRUE(validate(f).empty()) << good;
  }
  for (const int32_t bad : {0, 25}) {
    f.max_daily_attempts = bad;
    expect_only(f, "max_daily_attempts", {"Must be between 1 and 24."});
  }
}

TEST(CampaignValidation, DailyAttemptsCannotExceedTotalAttempts) {
  campaign_fields f = valid_fields();
  f.max_call_attempts = 3;
  f.max_daily_attempts = 4;
  expect_only(f, "max_daily_attempts", {"Cannot exceed max_call_attempts."});
  f.max_daily_attempts = 3;
  EXPECT_TRUE(validate(f).empty());
  // An invalid total is reported alone, not compared.
  f.max_call_attempts = 0;
  expect_only(f, "max_call_attempts", {"Must be between 1 and 100."});
}

TEST(CampaignValidation, MinGapBetween3And43200Minutes) {
  campaign_fields f = valid_fields();
  for (const int32_t good : {3, 43'200}) {
    f.min_gap_between_attempts = good;
    EXPECT_TRUE(validate(f).empty()) << good;
  }
  for (const int32_t bad : {2, 0, 43'201}) {
    f.min_gap_between_attempts = bad;
    expect_only(f, "min_gap_between_attempts", {"Must be between 3 and 43200 minutes."});
  }
}

// ---- webhook URL -----------------------------------------------------------------

TEST(CampaignValidation, WebhookUrlMustBeHttp) {
  campaign_fields f = valid_fields();
  for (const char* bad : {"ftp://x", "http://", "http://exa mple.com", "javascript:alert(1)"}) {
    f.webhook_url = bad;
    expect_only(f, "webhook_url", {"Enter a valid http or https URL."});
  }
  f.webhook_url = "";
  expect_only(f, "webhook_url", {"This field may not be blank."});
}

TEST(CampaignValidation, WebhookUrlAtMost2048Characters) {
  const std::string prefix = "https://example.com/";
  campaign_fields f = valid_fields();
  f.webhook_url = prefix + std::string(2048 - prefix.size(), 'a');
  EXPECT_TRUE(validate(f).empty());
  f.webhook_url = prefix + std::string(2049 - prefix.size(), 'a');
  expect_only(f, "webhook_url", {"Ensure this field has no more than 2048 characters."});
}

// ---- status ----------------------------------------------------------------------

TEST(CampaignStatus, NamesInOrder) {
  EXPECT_EQ(campaign_status_names(), (strings{"DRAFT", "SCHEDULED", "ACTIVE", "PAUSED", "ENDED"}));
}

TEST(CampaignStatus, NamesRoundTrip) {
  for (const auto& name : campaign_status_names()) {
    const auto status = parse_campaign_status(name);
    ASSERT_TRUE(status.has_value()) << name;
    EXPECT_EQ(to_string(*status), name);
  }
  EXPECT_EQ(parse_campaign_status("PAUSED"), campaign_status::paused);
}

TEST(CampaignStatus, RejectsOtherSpellings) {
  for (const char* bad : {"", "draft", "Active", "ACTIVE ", "STOPPED"})
    EXPECT_EQ(parse_campaign_status(bad), std::nullopt) << '"' << bad << '"';
}

} // namespace
