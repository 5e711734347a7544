#include "domain/fair_share.hpp"

#include <gtest/gtest.h>

#include <vector>

using vcs::domain::fair_share;

namespace {

// Starts jobs until the share hands out none; returns their ids.
std::vector<int> start_all(fair_share<int>& share) {
  std::vector<int> started;
  while (auto next = share.next())
    started.push_back(next->second);
  return started;
}

} // namespace

TEST(FairShare, an_owner_alone_uses_every_worker_up_to_its_cap_in_order) {
  fair_share<int> share{3};
  for (int i = 1; i <= 5; ++i)
    share.push(7, i);
  EXPECT_EQ(start_all(share), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(share.running(), 3u);
  EXPECT_EQ(share.waiting(), 2u);
  share.finished(7);
  EXPECT_EQ(start_all(share), (std::vector<int>{4}));
}

TEST(FairShare, a_newcomer_goes_ahead_of_a_busy_owners_backlog) {
  fair_share<int> share{3};
  for (int i = 1; i <= 10; ++i)
    share.push(1, i);
  ASSERT_EQ(start_all(share).size(), 3u);
  share.push(2, 100);
  share.push(1, 11);
  // Owner 1 finishes one: the freed worker goes to owner 2, which holds none.
  share.finished(1);
  auto next = share.next();
  ASSERT_TRUE(next);
  EXPECT_EQ(next->first, 2u);
  EXPECT_EQ(next->second, 100);
}

TEST(FairShare, owners_holding_equal_shares_take_turns) {
  fair_share<int> share{8};
  for (int i = 0; i < 3; ++i) {
    share.push(1, 10 + i);
    share.push(2, 20 + i);
  }
  EXPECT_EQ(start_all(share), (std::vector<int>{10, 20, 11, 21, 12, 22}));
}

TEST(FairShare, the_fewest_held_wins_over_the_longest_waiting) {
  fair_share<int> share{8};
  share.push(1, 10);
  share.push(1, 11);
  ASSERT_EQ(share.next()->second, 10);
  // Owner 1 waits longer, but holds a worker; owner 2 holds none.
  share.push(2, 20);
  EXPECT_EQ(share.next()->second, 20);
  EXPECT_EQ(share.next()->second, 11);
}

TEST(FairShare, an_owner_at_its_cap_waits_even_with_workers_free) {
  fair_share<int> share{1};
  share.push(1, 10);
  share.push(1, 11);
  EXPECT_EQ(start_all(share), (std::vector<int>{10}));
  EXPECT_FALSE(share.next());
  share.finished(1);
  EXPECT_EQ(start_all(share), (std::vector<int>{11}));
  share.finished(1);
  EXPECT_EQ(share.running(), 0u);
  EXPECT_EQ(share.waiting(), 0u);
}

TEST(FairShare, a_finish_for_an_owner_with_nothing_running_changes_nothing) {
  fair_share<int> share{2};
  share.finished(5);
  share.push(5, 1);
  share.finished(5);
  EXPECT_EQ(share.waiting(), 1u);
  EXPECT_EQ(share.running(), 0u);
  EXPECT_EQ(start_all(share), (std::vector<int>{1}));
}
