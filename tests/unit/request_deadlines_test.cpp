#include "domain/request_deadlines.hpp"

#include <gtest/gtest.h>

namespace {

using namespace std::chrono_literals;
using vcs::domain::deadlines_for;

// Each part gives up only after the one it waits for has given its verdict,
// so a key's claim is never taken over while an outcome can still arrive.
TEST(RequestDeadlines, EachPartOutwaitsTheOneBelowIt) {
  for (auto timeout : {1ms, 1'000ms, 30'000ms, 600'000ms}) {
    auto d = deadlines_for(timeout);
    EXPECT_EQ(d.answer, timeout);
    EXPECT_GT(d.database, d.answer);
    EXPECT_GT(d.settle, d.database);
    EXPECT_GT(d.abandon, d.settle);
  }
}

TEST(RequestDeadlines, TheDefaultClaimIsAbandonedAfterTwoAndAHalfMinutes) {
  EXPECT_EQ(deadlines_for(30'000ms).abandon, 150s);
}

} // namespace
