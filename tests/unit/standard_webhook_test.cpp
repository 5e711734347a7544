#include "domain/standard_webhook.hpp"

#include "domain/webhook_retry.hpp"
#include "domain/webhook_signature.hpp"

#include <gtest/gtest.h>

namespace vcs::domain {
namespace {

using namespace std::chrono_literals;

// The specification's own vector (its Python library's test_sign_function).
constexpr std::string_view spec_secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
constexpr std::string_view spec_id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
constexpr int64_t spec_time = 1614265330;
constexpr std::string_view spec_body = R"({"test": 2432232314})";
constexpr std::string_view spec_signature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

TEST(standard_webhook, signs_the_specifications_vector) {
  const auto key = standard_webhook_key(spec_secret);
  ASSERT_TRUE(key);
  EXPECT_EQ(standard_webhook_signature(*key, spec_id, spec_time, spec_body), spec_signature);
  // The prefix is optional, as in the specification's libraries.
  EXPECT_EQ(standard_webhook_key(spec_secret.substr(6)), key);
}

TEST(standard_webhook, verifies_within_tolerance_and_rejects_changes) {
  const std::string sig{spec_signature};
  const auto ts = std::to_string(spec_time);
  EXPECT_TRUE(verify_standard_webhook(spec_secret, spec_id, ts, sig, spec_body, spec_time, 300));
  EXPECT_TRUE(
      verify_standard_webhook(spec_secret, spec_id, ts, sig, spec_body, spec_time + 300, 300));
  EXPECT_FALSE(
      verify_standard_webhook(spec_secret, spec_id, ts, sig, spec_body, spec_time + 301, 300));
  EXPECT_FALSE(
      verify_standard_webhook(spec_secret, spec_id, ts, sig, spec_body, spec_time - 301, 300));
  EXPECT_FALSE(
      verify_standard_webhook(spec_secret, "msg_other", ts, sig, spec_body, spec_time, 300));
  EXPECT_FALSE(verify_standard_webhook(spec_secret, spec_id, std::to_string(spec_time + 1), sig,
                                       spec_body, spec_time, 300));
  EXPECT_FALSE(verify_standard_webhook(spec_secret, spec_id, ts, sig, std::string{spec_body} + " ",
                                       spec_time, 300));
  // One changed bit of the signature (the library's invalid-signature case).
  EXPECT_FALSE(verify_standard_webhook(spec_secret, spec_id, ts,
                                       "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA=", spec_body,
                                       spec_time, 300));
  EXPECT_FALSE(
      verify_standard_webhook(spec_secret, spec_id, "hello", sig, spec_body, spec_time, 300));
  EXPECT_FALSE(verify_standard_webhook("whsec_!!!", spec_id, ts, sig, spec_body, spec_time, 300));
}

TEST(standard_webhook, any_v1_entry_of_the_list_may_match) {
  const auto ts = std::to_string(spec_time);
  // The library's multi-signature case: other versions are skipped.
  const std::string list = "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= "
                           "v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= " +
                           std::string{spec_signature} + " v1,bm90IGJhc2U2NA";
  EXPECT_TRUE(verify_standard_webhook(spec_secret, spec_id, ts, list, spec_body, spec_time, 300));
  EXPECT_FALSE(verify_standard_webhook(spec_secret, spec_id, ts,
                                       "v2," + std::string{spec_signature.substr(3)}, spec_body,
                                       spec_time, 300));
}

TEST(standard_webhook, a_rotated_secret_signs_beside_the_new_one) {
  const std::string old_secret = new_webhook_secret();
  const std::string new_secret = new_webhook_secret();
  const auto header = standard_webhook_signatures(
      {*standard_webhook_key(new_secret), *standard_webhook_key(old_secret)}, "evt_1", spec_time,
      "{}");
  EXPECT_EQ(std::count(header.begin(), header.end(), ' '), 1);
  const auto ts = std::to_string(spec_time);
  EXPECT_TRUE(verify_standard_webhook(new_secret, "evt_1", ts, header, "{}", spec_time, 0));
  EXPECT_TRUE(verify_standard_webhook(old_secret, "evt_1", ts, header, "{}", spec_time, 0));
  EXPECT_FALSE(
      verify_standard_webhook(new_webhook_secret(), "evt_1", ts, header, "{}", spec_time, 0));
}

TEST(standard_webhook, secrets_of_the_first_format_still_have_a_key) {
  // "whsec_" and 64 hex digits: hex digits are base64 too (48 bytes), so
  // a receiver keeps its secret when it moves to a standard library.
  const std::string first = "whsec_" + std::string(64, 'a');
  const auto key = standard_webhook_key(first);
  ASSERT_TRUE(key);
  EXPECT_EQ(key->size(), 48u);
}

TEST(webhook_retry, the_default_schedule_spans_more_than_three_days) {
  const auto schedule = parse_retry_schedule(default_webhook_retry_schedule);
  ASSERT_TRUE(schedule);
  EXPECT_EQ(schedule->size(), 9u);
  EXPECT_EQ(retry_span(*schedule), 75h + 35min + 5s);
  EXPECT_GT(retry_span(*schedule), 72h);
  EXPECT_EQ(format_retry_schedule(*schedule), default_webhook_retry_schedule);
}

TEST(webhook_retry, jitter_only_stretches_and_the_schedule_ends) {
  const retry_schedule schedule{5s, 5min};
  EXPECT_EQ(retry_delay(schedule, 1, 0.0), 5s);
  EXPECT_EQ(retry_delay(schedule, 1, 0.5), 5500ms);
  EXPECT_EQ(retry_delay(schedule, 2, 0.999999), 360s);
  EXPECT_EQ(retry_delay(schedule, 2, 7.0), 360s); // clamped
  EXPECT_EQ(retry_delay(schedule, 3, 0.0), std::nullopt);
  EXPECT_EQ(retry_delay(schedule, 0, 0.0), std::nullopt);
}

TEST(webhook_retry, malformed_schedules_are_refused) {
  for (const char* bad : {"", "5", "5x", "0s", "-1s", "5s,", ",5s", "8d", "1.5s", "5 s", "s"})
    EXPECT_FALSE(parse_retry_schedule(bad)) << bad;
  EXPECT_EQ(parse_retry_schedule(" 100ms, 7d "), (retry_schedule{100ms, 168h}));
  std::string fifty_one = "1s";
  for (int i = 0; i < 50; ++i)
    fifty_one += ",1s";
  EXPECT_FALSE(parse_retry_schedule(fifty_one));
}

} // namespace
} // namespace vcs::domain
