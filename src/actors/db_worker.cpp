#include "actors/db_worker.hpp"

#include "actors/actor_error.hpp"
#include "storage/database.hpp"
#include "storage/storage_error.hpp"

#include <spdlog/spdlog.h>

namespace vcs::actors {

caf::result<db_done> db_worker_state::run(db_task& task) {
  struct report {
    const std::function<void(std::uint64_t)>& to;
    std::uint64_t owner;
    ~report() {
      if (to)
        to(owner);
    }
  } done{on_done, task.owner};
  soci::session* session = nullptr;
  try {
    session = &sql->get();
  } catch (const std::exception& e) {
    spdlog::warn("database worker cannot connect: {}", e.what());
    return make_error(domain::service_unavailable());
  }
  try {
    task.run(*session);
    return db_done{};
  } catch (const std::exception& e) {
    auto err = storage::translate(e, storage::connection_lost(*session));
    if (err.code == domain::errc::internal)
      spdlog::error("database task failed: {}", e.what());
    return make_error(std::move(err));
  }
}

db_worker_actor::behavior_type db_worker(db_worker_actor::stateful_pointer<db_worker_state> self,
                                         std::string url,
                                         std::function<void(std::uint64_t)> on_done) {
  self->state.sql = std::make_unique<storage::lazy_session>(std::move(url));
  self->state.on_done = std::move(on_done);
  return {
      [self](db_task& task) -> caf::result<db_done> { return self->state.run(task); },
  };
}

} // namespace vcs::actors
