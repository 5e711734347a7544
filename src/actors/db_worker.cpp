#include "actors/db_worker.hpp"

#include "actors/actor_error.hpp"
#include "storage/database.hpp"
#include "storage/storage_error.hpp"

#include <spdlog/spdlog.h>

namespace vcs::actors {

caf::result<db_result> db_worker_state::run(db_task& task) {
  // However the job ends: no cancel may reach past it, then the dispatcher
  // learns the worker is free.
  struct job_scope {
    db_worker_state& st;
    std::uint64_t owner;
    explicit job_scope(db_worker_state& s, std::uint64_t o) : st(s), owner(o) {
      if (st.cancel)
        st.cancel->begin();
    }
    ~job_scope() {
      if (st.cancel)
        st.cancel->end();
      if (st.on_done)
        st.on_done(owner);
    }
  } scope{*this, task.owner};
  soci::session* session = nullptr;
  try {
    session = &sql->get();
  } catch (const std::exception& e) {
    spdlog::warn("database worker cannot connect: {}", e.what());
    return make_error(domain::service_unavailable());
  }
  if (cancel)
    cancel->attach(*session);
  try {
    return db_result{task.run(*session)};
  } catch (const std::exception& e) {
    auto err = storage::translate(e, storage::connection_lost(*session));
    if (err.code == domain::errc::internal)
      spdlog::error("database task failed: {}", e.what());
    return make_error(std::move(err));
  }
}

db_worker_actor::behavior_type db_worker(db_worker_actor::stateful_pointer<db_worker_state> self,
                                         std::string url,
                                         std::function<void(std::uint64_t)> on_done,
                                         std::shared_ptr<storage::statement_cancel> cancel) {
  self->state.sql = std::make_unique<storage::lazy_session>(std::move(url));
  self->state.on_done = std::move(on_done);
  self->state.cancel = std::move(cancel);
  return {
      [self](db_task& task) -> caf::result<db_result> { return self->state.run(task); },
  };
}

} // namespace vcs::actors
