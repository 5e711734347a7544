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

// Migration 0008 moves each unfinished import's rows from the job's one
// payload into chunks, starting where the import stopped; the imports go
// on from their chunks.
TEST(migration_test, unfinished_imports_continue_from_their_chunks) {
  const std::string scratch = "vcs_migration_0008";
  {
    auto admin = storage::open_session(database_url());
    *admin << "DROP DATABASE IF EXISTS " + scratch;
    *admin << "CREATE DATABASE " + scratch;
  }
  auto url = database_url();
  url = url.substr(0, url.rfind('/') + 1) + scratch;
  {
    auto sql = storage::open_session(url);
    for (const auto& [name, text] : storage::embedded_migrations())
      if (name < "0008")
        *sql << std::string{text};
    *sql << "INSERT INTO tenants (name, plan) VALUES ('t', 'PRO')";
    *sql << "INSERT INTO campaigns (tenant_id, name) SELECT id, 'c' FROM tenants";
    // 12,000 rows, 5,000 of them imported before the upgrade; and a job
    // that had finished.
    *sql << "INSERT INTO lead_import_jobs (tenant_id, campaign_id, payload, accepted, invalid, "
            "status, next_index) SELECT c.tenant_id, c.id, (SELECT jsonb_agg(jsonb_build_object("
            "'phone_number', '+1415555' || lpad(g::text, 5, '0'))) FROM generate_series(0, 11999) "
            "g), 12003, 3, s.status, s.next FROM campaigns c, (VALUES ('running', 5000), ('done', "
            "12000)) s(status, next)";
    for (const auto& [name, text] : storage::embedded_migrations())
      if (name >= "0008")
        *sql << std::string{text};
    std::vector<int> first(4), count(4);
    std::vector<std::string> phone(4), status(4);
    *sql << "SELECT c.first_index, c.row_count, c.rows->0->>'phone_number', j.status "
            "FROM lead_import_chunks c JOIN lead_import_jobs j ON j.id = c.job_id "
            "ORDER BY c.first_index",
        soci::into(first), soci::into(count), soci::into(phone), soci::into(status);
    EXPECT_EQ(first, (std::vector<int>{5000, 10000}));
    EXPECT_EQ(count, (std::vector<int>{5000, 2000}));
    EXPECT_EQ(phone, (std::vector<std::string>{"+141555505000", "+141555510000"}));
    EXPECT_EQ(status, (std::vector<std::string>{"running", "running"}));
  }
  auto admin = storage::open_session(database_url());
  *admin << "DROP DATABASE " + scratch;
}

} // namespace
} // namespace vcs::test
