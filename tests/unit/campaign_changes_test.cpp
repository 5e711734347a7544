#include "domain/campaign_changes.hpp"

#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

namespace {

using namespace vcs::domain;

campaign stored_campaign() {
  campaign c;
  c.type = "OUTBOUND";
  c.status = campaign_status::active;
  c.provider_a_calling_entity = "ASSISTANT";
  c.start_date = "2026-03-01";
  c.end_date = "2026-03-31";
  c.daily_start_time = "09:00";
  c.daily_end_time = "17:00";
  c.max_call_attempts = 3;
  c.max_daily_attempts = 2;
  return c;
}

std::vector<std::string> fields_of(const error& e) {
  std::vector<std::string> out;
  if (auto f = std::get_if<field_errors>(&e.errors))
    for (const auto& [field, messages] : f->entries())
      out.push_back(field);
  return out;
}

TEST(campaign_changes, a_create_only_field_may_be_sent_with_its_stored_value_only) {
  campaign_fields same;
  same.type = "OUTBOUND";
  same.start_date = "2026-03-01";
  EXPECT_FALSE(check_create_only_fields(stored_campaign(), same));

  campaign_fields other;
  other.end_date = "2026-04-30";
  auto refused = check_create_only_fields(stored_campaign(), other);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code, errc::bad_request);
  const auto* items = std::get_if<std::vector<std::string>>(&refused->errors);
  ASSERT_NE(items, nullptr);
  EXPECT_EQ(items->front(), "end_date is immutable");
}

TEST(campaign_changes, each_update_check_looks_at_its_own_fields) {
  campaign_fields f;
  f.type = "INBOUND";
  f.max_daily_attempts = 5;
  EXPECT_EQ(fields_of(*check_related_fields(stored_campaign(), f)),
            std::vector<std::string>{"max_daily_attempts"});
  f.max_daily_attempts.reset();
  EXPECT_FALSE(check_related_fields(stored_campaign(), f));
  EXPECT_EQ(check_create_only_fields(stored_campaign(), f)->code, errc::bad_request);
}

TEST(campaign_changes, related_fields_are_checked_against_the_stored_ones) {
  // Each field alone is well formed; with the stored field beside it, not.
  campaign_fields end;
  end.daily_end_time = "08:00";
  auto window = check_related_fields(stored_campaign(), end);
  ASSERT_TRUE(window);
  EXPECT_EQ(window->code, errc::bad_request);
  EXPECT_FALSE(fields_of(*window).empty());

  campaign_fields daily;
  daily.max_daily_attempts = 5;
  auto attempts = check_related_fields(stored_campaign(), daily);
  ASSERT_TRUE(attempts);
  EXPECT_EQ(fields_of(*attempts), std::vector<std::string>{"max_daily_attempts"});

  daily.max_call_attempts = 5;
  EXPECT_FALSE(check_related_fields(stored_campaign(), daily));
}

TEST(campaign_changes, an_ended_campaign_keeps_its_status) {
  for (auto to : {campaign_status::draft, campaign_status::active, campaign_status::paused}) {
    auto refused = check_status_change(campaign_status::ended, to, std::nullopt);
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->code, errc::conflict);
    EXPECT_EQ(refused->message, "Unable to update the campaign status");
  }
  EXPECT_FALSE(check_status_change(campaign_status::active, campaign_status::ended, std::nullopt));
}

TEST(campaign_changes, a_billing_block_stops_only_a_start) {
  const std::optional<std::string> past_due = "PAST_DUE";
  EXPECT_TRUE(billing_may_block(campaign_status::active));
  EXPECT_TRUE(billing_may_block(campaign_status::scheduled));
  EXPECT_FALSE(billing_may_block(campaign_status::paused));
  auto refused = check_status_change(campaign_status::paused, campaign_status::active, past_due);
  ASSERT_TRUE(refused);
  const auto* why = std::get_if<std::string>(&refused->detail);
  ASSERT_NE(why, nullptr);
  EXPECT_NE(why->find("PAST_DUE"), std::string::npos);
  EXPECT_FALSE(check_status_change(campaign_status::active, campaign_status::paused, past_due));
  EXPECT_FALSE(check_status_change(campaign_status::paused, campaign_status::active, std::nullopt));
}

TEST(campaign_changes, a_pause_by_hand_takes_over_another_reason) {
  auto c = stored_campaign();
  EXPECT_FALSE(changes_status(c, campaign_status::active));
  EXPECT_TRUE(changes_status(c, campaign_status::paused));
  c.status = campaign_status::paused;
  c.paused_for = pause_reason::billing;
  EXPECT_TRUE(changes_status(c, campaign_status::paused));
  c.paused_for = pause_reason::manual;
  EXPECT_FALSE(changes_status(c, campaign_status::paused));
  EXPECT_TRUE(changes_status(c, campaign_status::active));
}

} // namespace
