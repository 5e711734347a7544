#pragma once

// The message a database worker runs. Its result does not travel in the
// message: the sender's closure keeps it, typed (group_commit, ask_database),
// and the worker's reply only says the work is done.

#include <caf/allowed_unsafe_message_type.hpp>

#include <cstdint>
#include <functional>

namespace soci {
class session;
}

namespace vcs::actors {

// Blocking database work for a detached worker.
struct db_task {
  std::function<void(soci::session&)> run;
  // Whose work it is, for a fair share of the workers: a tenant's id, or 0
  // for the node's own (schedulers, sweeps).
  std::uint64_t owner = 0;
};

// The worker's reply: the task ran to its end.
struct db_done {};

} // namespace vcs::actors

// Closures over one process's memory: never sent to another node.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::db_task)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::db_done)
