#pragma once

// The message a database worker runs, and its reply. The work is a closure
// over a storage call because every storage call runs on the same workers
// (and a group commit's batch is several of them in one transaction); what
// it returns travels back in the reply, and the sender, which made the
// closure, takes its type out again (ask_database, group_commit).

#include <caf/allowed_unsafe_message_type.hpp>

#include <any>
#include <cstdint>
#include <functional>

namespace soci {
class session;
}

namespace vcs::actors {

// Blocking database work for a detached worker.
struct db_task {
  std::function<std::any(soci::session&)> run;
  // Whose work it is, for a fair share of the workers: a tenant's id, or 0
  // for the node's own (schedulers, sweeps).
  std::uint64_t owner = 0;
};

// The worker's reply: what the task returned, once it ran to its end.
struct db_result {
  std::any value;
};

} // namespace vcs::actors

// Closures over one process's memory: never sent to another node.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::db_task)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::db_result)
