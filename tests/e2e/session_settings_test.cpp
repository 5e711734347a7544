// Every session the service opens is set up the same way
// (docs/decisions/storage.md#storage): UTC, generic plans, and neither JIT
// compilation nor parallel workers, which cost more than the short reads
// they would serve.

#include "service_process.hpp"
#include "storage/database.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <string>

namespace vcs::test {
namespace {

std::string setting(soci::session& sql, const std::string& name) {
  std::string value;
  sql << "SELECT current_setting(:name)", soci::use(name, "name"), soci::into(value);
  return value;
}

TEST(session_settings_test, sessions_plan_once_without_jit_or_parallel_workers) {
  auto sql = storage::open_session(database_url());
  EXPECT_EQ(setting(*sql, "TimeZone"), "UTC");
  EXPECT_EQ(setting(*sql, "plan_cache_mode"), "force_generic_plan");
  EXPECT_EQ(setting(*sql, "jit"), "off");
  EXPECT_EQ(setting(*sql, "max_parallel_workers_per_gather"), "0");
}

} // namespace
} // namespace vcs::test
