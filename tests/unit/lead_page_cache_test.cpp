#include "http/work/lead_page_cache.hpp"

#include <gtest/gtest.h>

namespace vcs::http {
namespace {

lead_page_cache::body page(std::size_t bytes, char fill = 'x') {
  return std::make_shared<const std::string>(bytes, fill);
}

TEST(lead_page_cache, serves_a_page_while_its_version_holds_and_drops_it_after) {
  lead_page_cache cache{1 << 20};
  const lead_page_cache::key k{7, 50, 0};
  EXPECT_EQ(cache.find(k, 5), nullptr);
  cache.store(k, 5, page(10, 'a'));
  ASSERT_NE(cache.find(k, 5), nullptr);
  EXPECT_EQ(*cache.find(k, 5), std::string(10, 'a'));
  // A request that read an older version may have the newer page.
  EXPECT_NE(cache.find(k, 4), nullptr);
  EXPECT_EQ(cache.find(k, 6), nullptr);
  EXPECT_EQ(cache.find(k, 5), nullptr) << "the stale page is gone";
  EXPECT_EQ(cache.bytes(), 0u);
  EXPECT_EQ(cache.hits(), 3u);
  EXPECT_EQ(cache.misses(), 3u);
}

TEST(lead_page_cache, each_campaign_limit_and_offset_is_its_own_page) {
  lead_page_cache cache{1 << 20};
  cache.store({1, 50, 0}, 1, page(1, 'a'));
  cache.store({1, 50, 50}, 1, page(1, 'b'));
  cache.store({1, 10, 0}, 1, page(1, 'c'));
  cache.store({2, 50, 0}, 1, page(1, 'd'));
  EXPECT_EQ(*cache.find({1, 50, 0}, 1), "a");
  EXPECT_EQ(*cache.find({1, 50, 50}, 1), "b");
  EXPECT_EQ(*cache.find({1, 10, 0}, 1), "c");
  EXPECT_EQ(*cache.find({2, 50, 0}, 1), "d");
}

TEST(lead_page_cache, an_older_rendering_never_replaces_a_newer_one) {
  lead_page_cache cache{1 << 20};
  const lead_page_cache::key k{1, 50, 0};
  cache.store(k, 9, page(1, 'n'));
  cache.store(k, 8, page(1, 'o'));
  EXPECT_EQ(*cache.find(k, 9), "n");
  cache.store(k, 10, page(2, 'm'));
  EXPECT_EQ(*cache.find(k, 10), "mm");
  EXPECT_EQ(cache.bytes(), lead_page_cache::footprint("mm"));
}

TEST(lead_page_cache, keeps_within_its_bytes_dropping_the_least_recently_used) {
  const auto one = lead_page_cache::footprint(std::string(40, 'x'));
  const auto budget = 2 * one + one / 2; // room for two pages, not three
  lead_page_cache cache{budget};
  cache.store({1, 50, 0}, 1, page(40));
  cache.store({2, 50, 0}, 1, page(40));
  ASSERT_NE(cache.find({1, 50, 0}, 1), nullptr); // 1 is now the more recent
  cache.store({3, 50, 0}, 1, page(40));
  EXPECT_LE(cache.bytes(), budget);
  EXPECT_NE(cache.find({1, 50, 0}, 1), nullptr);
  EXPECT_EQ(cache.find({2, 50, 0}, 1), nullptr);
  EXPECT_NE(cache.find({3, 50, 0}, 1), nullptr);
  cache.store({4, 50, 0}, 1, page(budget));
  EXPECT_EQ(cache.find({4, 50, 0}, 1), nullptr) << "larger than the whole budget";
  EXPECT_EQ(cache.bytes(), 2 * one);
}

// Small pages count their bookkeeping too: a flood of empty pages past a
// campaign's end cannot hold more memory than the budget.
TEST(lead_page_cache, small_pages_count_their_bookkeeping) {
  lead_page_cache cache{10'000};
  for (int64_t offset = 0; offset < 1'000; ++offset)
    cache.store({1, 50, offset}, 1, page(1));
  EXPECT_LE(cache.bytes(), 10'000u);
  EXPECT_EQ(cache.bytes() % lead_page_cache::footprint("x"), 0u);
  EXPECT_LT(cache.bytes() / lead_page_cache::footprint("x"), 1'000u);
}

TEST(lead_page_cache, a_budget_of_zero_keeps_nothing) {
  lead_page_cache cache{0};
  cache.store({1, 50, 0}, 1, page(1));
  EXPECT_EQ(cache.find({1, 50, 0}, 1), nullptr);
  EXPECT_EQ(cache.bytes(), 0u);
}

} // namespace
} // namespace vcs::http
