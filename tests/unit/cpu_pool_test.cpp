#include "http/work/cpu_pool.hpp"

#include <gtest/gtest.h>

#include <future>

namespace vcs::http {
namespace {

// A step alone on a node with one pool thread (a 2-core machine) spreads
// over both cores: its own thread and one for the core the pool leaves.
TEST(cpu_pool, a_step_alone_spreads_over_every_core) {
  cpu_pool pool{1, 0};
  std::promise<std::pair<unsigned, unsigned>> seen;
  ASSERT_TRUE(pool.post(1, [&] { seen.set_value({pool.width(8), pool.width(1)}); }));
  auto [wide, capped] = seen.get_future().get();
  EXPECT_EQ(wide, 2u);
  EXPECT_EQ(capped, 1u) << "never wider than the step asks";
}

} // namespace
} // namespace vcs::http
