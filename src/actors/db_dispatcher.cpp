#include "actors/db_dispatcher.hpp"

#include "actors/db_worker.hpp"

#include <caf/actor_cast.hpp>
#include <caf/sec.hpp>
#include <caf/send.hpp>
#include <caf/spawn_options.hpp>

#include <algorithm>

namespace vcs::actors {

caf::typed_response_promise<db_done> db_dispatcher_state::run(db_dispatcher_actor::pointer self,
                                                              db_task& task) {
  auto reply = self->make_response_promise<db_done>();
  const auto owner = task.owner;
  share->push(owner, pending{std::move(task), reply, std::chrono::steady_clock::now() + timeout});
  start_next();
  return reply;
}

void db_dispatcher_state::done(std::size_t worker, std::uint64_t owner) {
  share->finished(owner);
  idle.push_back(worker);
  start_next();
}

void db_dispatcher_state::start_next() {
  const auto now = std::chrono::steady_clock::now();
  while (!idle.empty()) {
    auto next = share->next();
    if (!next)
      break;
    auto& [owner, job] = *next;
    if (now > job.due) {
      share->finished(owner);
      job.reply.deliver(caf::make_error(caf::sec::request_timeout));
      continue;
    }
    const auto worker = idle.back();
    idle.pop_back();
    // The worker answers the requester itself and tells this actor when it
    // is free again (done).
    job.reply.delegate(workers[worker], std::move(job.task));
  }
  publish_load();
}

void db_dispatcher_state::publish_load() {
  load->busy.store(share->running(), std::memory_order_relaxed);
  load->waiting.store(share->waiting(), std::memory_order_relaxed);
}

db_dispatcher_actor::behavior_type
db_dispatcher(db_dispatcher_actor::stateful_pointer<db_dispatcher_state> self, std::string url,
              std::size_t size, std::chrono::milliseconds timeout, std::shared_ptr<db_load> load) {
  auto& st = self->state;
  auto me = caf::actor_cast<db_dispatcher_actor>(self);
  for (std::size_t i = 0; i < size; ++i) {
    auto on_done = [me, i](std::uint64_t owner) { caf::anon_send(me, done_atom::value, i, owner); };
    st.workers.push_back(self->spawn<caf::detached + caf::linked>(db_worker, url, on_done));
    st.idle.push_back(size - 1 - i);
  }
  st.share = std::make_unique<domain::fair_share<db_dispatcher_state::pending>>(
      std::max<std::size_t>(1, size - 1));
  st.timeout = timeout;
  st.load = std::move(load);
  return {
      [self](db_task& task) { return self->state.run(self, task); },
      [self](done_atom, std::size_t worker, std::uint64_t owner) {
        self->state.done(worker, owner);
      },
  };
}

} // namespace vcs::actors
