#include "storage/migrations.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string>

namespace vcs::storage {

namespace {

// An arbitrary constant shared by every node: pg_advisory_lock(key).
constexpr long long migration_lock_key = 7'216'100'001;

constexpr const char* create_version_table = R"sql(
CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
))sql";

constexpr const char* select_applied = "SELECT coalesce(max(version), 0) FROM schema_migrations";
constexpr const char* select_is_applied =
    "SELECT count(*) FROM schema_migrations WHERE version = :v";
constexpr const char* select_version_table =
    "SELECT CASE WHEN to_regclass('schema_migrations') IS NULL THEN 0 ELSE 1 END";
constexpr const char* insert_applied =
    "INSERT INTO schema_migrations (version, name) VALUES (:v, :n)";

int version_of(std::string_view file_name) {
  int version = 0;
  auto [ptr, ec] = std::from_chars(file_name.data(), file_name.data() + file_name.size(), version);
  if (ec != std::errc{} || ptr == file_name.data() || *ptr != '_')
    throw std::runtime_error("migration file without a version prefix: " + std::string{file_name});
  return version;
}

// Releases the advisory lock however migrate() leaves.
class advisory_lock {
public:
  explicit advisory_lock(soci::session& sql) : sql_(sql) {
    sql_ << "SELECT pg_advisory_lock(:k)", soci::use(migration_lock_key);
  }
  ~advisory_lock() {
    try {
      sql_ << "SELECT pg_advisory_unlock(:k)", soci::use(migration_lock_key);
    } catch (...) {
      // The lock is released with the session anyway.
    }
  }
  advisory_lock(const advisory_lock&) = delete;
  advisory_lock& operator=(const advisory_lock&) = delete;

private:
  soci::session& sql_;
};

} // namespace

migration_status read_migration_status(soci::session& sql) {
  migration_status status;
  int has_table = 0;
  sql << select_version_table, soci::into(has_table);
  if (has_table != 0)
    sql << select_applied, soci::into(status.current);
  for (const auto& [name, text] : embedded_migrations()) {
    const int version = version_of(name);
    status.latest = std::max(status.latest, version);
    long long present = 0;
    if (has_table != 0)
      sql << select_is_applied, soci::use(version), soci::into(present);
    if (present == 0)
      status.pending.push_back(name);
  }
  return status;
}

migration_report migrate(soci::session& sql) {
  advisory_lock lock{sql};
  sql << create_version_table;
  migration_report report;
  for (const auto& [name, text] : embedded_migrations()) {
    int version = version_of(name);
    long long present = 0;
    sql << select_is_applied, soci::use(version), soci::into(present);
    if (present > 0)
      continue;
    soci::transaction tx{sql};
    sql << std::string{text};
    std::string file{name};
    sql << insert_applied, soci::use(version), soci::use(file);
    tx.commit();
    ++report.applied;
  }
  sql << select_applied, soci::into(report.current);
  return report;
}

} // namespace vcs::storage
