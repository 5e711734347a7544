#include "domain/placement_refusal.hpp"

#include <gtest/gtest.h>

using namespace vcs::domain;

TEST(placement_refusal, a_rate_limit_is_busy_and_refused_credentials_are_their_own) {
  EXPECT_EQ(refusal_of_status(429), placement_refusal::busy);
  EXPECT_EQ(refusal_of_status(401), placement_refusal::credentials);
  EXPECT_EQ(refusal_of_status(403), placement_refusal::credentials);
  for (int status : {0, 400, 402, 404, 422, 500, 502, 503, 504})
    EXPECT_EQ(refusal_of_status(status), placement_refusal::failed) << status;
  EXPECT_EQ(to_string(placement_refusal::busy), "busy");
  EXPECT_EQ(to_string(placement_refusal::credentials), "credentials");
  EXPECT_EQ(to_string(placement_refusal::failed), "failed");
}
