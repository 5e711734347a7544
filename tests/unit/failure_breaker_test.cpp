#include "domain/failure_breaker.hpp"

#include <gtest/gtest.h>

using namespace vcs::domain;

TEST(failure_breaker, a_campaign_without_settings_takes_the_defaults) {
  campaign c;
  EXPECT_EQ(breaker_of(c).calls, 20);
  EXPECT_EQ(breaker_of(c).percent, 50);
  c.failure_breaker_calls = 5;
  c.failure_breaker_percent = 80;
  EXPECT_EQ(breaker_of(c).calls, 5);
  EXPECT_EQ(breaker_of(c).percent, 80);
}

TEST(failure_breaker, only_the_providers_failures_count) {
  EXPECT_TRUE(is_provider_failure("ABANDONED", std::nullopt));
  EXPECT_TRUE(is_provider_failure("FAILED", std::string{"failed"}));
  EXPECT_FALSE(is_provider_failure("FAILED", std::string{"invalid_number"}));
  EXPECT_FALSE(is_provider_failure("COMPLETED", std::string{"busy"}));
  EXPECT_FALSE(is_provider_failure("COMPLETED", std::string{"no_answer"}));
  EXPECT_FALSE(is_provider_failure("COMPLETED", std::string{"human"}));
}

TEST(failure_breaker, it_trips_on_a_full_window_at_its_share) {
  const failure_breaker b{10, 50};
  EXPECT_FALSE(breaker_trips(b, 9, 9)) << "the window is not full yet";
  EXPECT_FALSE(breaker_trips(b, 10, 4));
  EXPECT_TRUE(breaker_trips(b, 10, 5));
  EXPECT_TRUE(breaker_trips(b, 10, 10));
  EXPECT_FALSE(breaker_trips(failure_breaker{0, 50}, 100, 100)) << "0 calls is off";
  EXPECT_TRUE(breaker_trips(failure_breaker{3, 100}, 3, 3));
  EXPECT_FALSE(breaker_trips(failure_breaker{3, 100}, 3, 2));
}

TEST(failure_breaker, its_campaign_fields_have_bounds) {
  for (auto [calls, percent, ok] :
       {std::tuple{0, 1, true}, std::tuple{1000, 100, true}, std::tuple{1001, 50, false},
        std::tuple{-1, 50, false}, std::tuple{20, 0, false}, std::tuple{20, 101, false}}) {
    campaign_fields f;
    f.failure_breaker_calls = calls;
    f.failure_breaker_percent = percent;
    field_errors errors;
    validate_campaign(f, false, errors);
    EXPECT_EQ(errors.empty(), ok) << calls << " " << percent;
  }
}
