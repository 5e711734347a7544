#include "domain/call_result.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace vcs::domain;

TEST(call_result, fields_within_their_limits_are_kept_as_sent) {
  call_result r;
  r.summary = std::string(call_result_limits::summary, 's');
  r.transcript = "AI: <b>Hello</b>\nUser: \"hi\"";
  r.recording_url = "https://storage.example/rec/1.wav";
  r.success_evaluation = "true";
  r.structured_data = R"({"booked":true})";
  r.ended_reason = "customer-ended-call";
  auto before = r;
  EXPECT_TRUE(keep_within_limits(r).empty());
  EXPECT_EQ(r.summary, before.summary);
  EXPECT_EQ(r.transcript, before.transcript);
  EXPECT_EQ(r.recording_url, before.recording_url);
  EXPECT_EQ(r.structured_data, before.structured_data);
}

TEST(call_result, each_field_over_its_limit_is_dropped_and_named) {
  call_result r;
  r.summary = std::string(call_result_limits::summary + 1, 's');
  r.transcript = std::string(call_result_limits::transcript + 1, 't');
  r.recording_url = "javascript:alert(1)";
  r.success_evaluation = std::string(call_result_limits::success_evaluation + 1, 'e');
  r.structured_data = std::string(call_result_limits::structured_data + 1, ' ');
  r.ended_reason = std::string(call_result_limits::ended_reason + 1, 'r');
  EXPECT_EQ(keep_within_limits(r),
            (std::vector<std::string>{"summary", "transcript", "recording_url",
                                      "success_evaluation", "structured_data", "ended_reason"}));
  EXPECT_FALSE(r.summary || r.transcript || r.recording_url || r.success_evaluation ||
               r.structured_data || r.ended_reason);
}

TEST(call_result, a_cost_has_four_decimals_and_a_range) {
  EXPECT_EQ(cost_text(0.1234567), "0.1235");
  EXPECT_EQ(cost_text(0), "0.0000");
  EXPECT_EQ(cost_text(-0.01), std::nullopt);
  EXPECT_EQ(cost_text(call_result_limits::cost * 2), std::nullopt);
  EXPECT_EQ(cost_text(std::nan("")), std::nullopt);
}

TEST(call_result, a_scripted_evaluation_is_one_per_attempt_the_last_repeating) {
  EXPECT_EQ(scripted_evaluation("false, true", 1), "false");
  EXPECT_EQ(scripted_evaluation("false, true", 2), "true");
  EXPECT_EQ(scripted_evaluation("false, true", 5), "true");
  EXPECT_EQ(scripted_evaluation("", 1), std::nullopt);
  EXPECT_EQ(scripted_evaluation("true", 0), std::nullopt);
}

TEST(call_result, an_evaluation_reads_as_success_failure_or_unclear) {
  EXPECT_EQ(verdict_of("true"), evaluation_verdict::success);
  EXPECT_EQ(verdict_of(" Pass "), evaluation_verdict::success);
  EXPECT_EQ(verdict_of("FALSE"), evaluation_verdict::failure);
  EXPECT_EQ(verdict_of("failed"), evaluation_verdict::failure);
  EXPECT_EQ(verdict_of("8"), evaluation_verdict::unclear);
  EXPECT_EQ(verdict_of("B+"), evaluation_verdict::unclear);
  EXPECT_EQ(verdict_of(""), evaluation_verdict::unclear);
  EXPECT_EQ(to_string(evaluation_verdict::failure), "failure");
}
