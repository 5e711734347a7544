#pragma once

#include "actors/actors.hpp"
#include "storage/database.hpp"
#include "storage/statement_cancel.hpp"

#include <soci/soci.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace vcs::actors {

struct db_worker_state {
  static inline const char* name = "db-worker";

  db_worker_state() = default;

  std::unique_ptr<storage::lazy_session> sql;
  // Told each task's owner once the task ran (the dispatcher's bookkeeping).
  std::function<void(std::uint64_t)> on_done;
  // Lets the dispatcher stop a job past its deadline (none for a worker of
  // its own).
  std::shared_ptr<storage::statement_cancel> cancel;

  caf::result<db_result> run(db_task& task);
};

// Spawn with caf::detached: every handler blocks on the database.
db_worker_actor::behavior_type db_worker(db_worker_actor::stateful_pointer<db_worker_state> self,
                                         std::string url,
                                         std::function<void(std::uint64_t)> on_done,
                                         std::shared_ptr<storage::statement_cancel> cancel);

} // namespace vcs::actors
