// Migrations against the real database: idempotent, and safe when several
// nodes start at once.

#include "service_process.hpp"
#include "storage/database.hpp"
#include "storage/migrations.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <thread>
#include <vector>

namespace vcs::test {
namespace {

int embedded_version() {
  const auto& files = storage::embedded_migrations();
  return std::stoi(std::string{files.back().first.substr(0, 4)});
}

TEST(migration_test, applying_twice_is_a_no_op) {
  auto sql = storage::open_session(database_url());
  storage::migrate(*sql);
  long long before = 0;
  *sql << "SELECT count(*) FROM schema_migrations", soci::into(before);
  auto again = storage::migrate(*sql);
  EXPECT_EQ(again.applied, 0);
  EXPECT_EQ(again.current, embedded_version());
  long long after = 0;
  *sql << "SELECT count(*) FROM schema_migrations", soci::into(after);
  EXPECT_EQ(before, after);
  EXPECT_EQ(after, static_cast<long long>(storage::embedded_migrations().size()));
}

TEST(migration_test, concurrent_nodes_migrate_once) {
  std::vector<std::thread> nodes;
  std::vector<int> results(4, -1);
  for (std::size_t i = 0; i < results.size(); ++i)
    nodes.emplace_back([&results, i] {
      auto sql = storage::open_session(database_url());
      results[i] = storage::migrate(*sql).current;
    });
  for (auto& n : nodes)
    n.join();
  for (int v : results)
    EXPECT_EQ(v, embedded_version());
}

TEST(migration_test, database_url_accepts_uri_and_keyword_forms) {
  auto sql = storage::open_session(database_url());
  storage::ping(*sql);
  EXPECT_THROW(storage::open_session("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"),
               std::exception);
  EXPECT_THROW(storage::open_session("not a = valid 'string"), std::exception);
}

} // namespace
} // namespace vcs::test
