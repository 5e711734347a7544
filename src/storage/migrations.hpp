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

// Applies every migration not yet recorded in schema_migrations, each in its
// own transaction, while holding a PostgreSQL advisory lock so that several
// nodes starting at once apply each migration exactly once.
migration_report migrate(soci::session& sql);

} // namespace vcs::storage
