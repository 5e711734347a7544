#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

// The SQL migrations compiled into the binary: (file name, SQL), ordered by
// name. A file named NNNN_description.sql is version NNNN.
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_migrations();

struct migration_report {
  int applied = 0; // migrations applied by this call
  int current = 0; // schema version afterwards
};

// What migrate() would do, read without changing anything: the migrations
// of this binary the database has not recorded, in order, and the newest
// version it has (a database migrated by a newer binary has versions this
// one lacks).
struct migration_status {
  int current = 0; // the newest version recorded; 0: none
  int latest = 0;  // the newest version of this binary
  std::vector<std::string_view> pending;
};
migration_status read_migration_status(soci::session& sql);

// Applies every migration not yet recorded in schema_migrations, each in its
// own transaction, while holding a PostgreSQL advisory lock so that several
// nodes starting at once apply each migration exactly once.
migration_report migrate(soci::session& sql);

} // namespace vcs::storage
