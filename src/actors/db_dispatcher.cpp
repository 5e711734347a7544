#include "actors/db_dispatcher.hpp"

#include "actors/db_worker.hpp"

#include <caf/actor_cast.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/sec.hpp>
#include <caf/send.hpp>
#include <caf/spawn_options.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>

namespace vcs::actors {

namespace {

// Runs on a detached actor of its own: reaching the server may block, and
// every tenant's work passes through the dispatcher.
void cancel_job(std::shared_ptr<storage::statement_cancel> cancel, std::uint64_t job) {
  if (auto why = cancel->cancel(job))
    spdlog::warn("cancelling a database job past its deadline failed: {}", *why);
}

} // namespace

caf::typed_response_promise<db_result> db_dispatcher_state::run(db_dispatcher_actor::pointer self,
                                                                db_task& task) {
  auto reply = self->make_response_promise<db_result>();
  const auto owner = task.owner;
  share->push(owner, pending{std::move(task), reply, std::chrono::steady_clock::now() + timeout});
  start_next();
  return reply;
}

void db_dispatcher_state::done(std::size_t worker, std::uint64_t owner) {
  workers[worker].due.reset();
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
    auto& worker = workers[idle.back()];
    idle.pop_back();
    ++worker.jobs;
    worker.due = job.due;
    // Every job is due `timeout` after it was queued.
    load->started.fetch_add(1, std::memory_order_relaxed);
    load->waited_ns.fetch_add(
        static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(now - (job.due - timeout))
                .count()),
        std::memory_order_relaxed);
    // The worker answers the requester itself and tells this actor when it
    // is free again (done).
    job.reply.delegate(worker.actor, std::move(job.task));
  }
  publish_load();
}

void db_dispatcher_state::cancel_overdue(db_dispatcher_actor::pointer self) {
  const auto now = std::chrono::steady_clock::now();
  for (auto& worker : workers) {
    if (!worker.due || now <= *worker.due)
      continue;
    worker.due.reset();
    self->spawn<caf::detached>(cancel_job, worker.cancel, worker.jobs);
  }
  self->delayed_send(self, tick, tick_atom::value);
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
    auto cancel = std::make_shared<storage::statement_cancel>();
    auto worker = self->spawn<caf::detached + caf::linked>(db_worker, url, on_done, cancel);
    st.workers.push_back({std::move(worker), std::move(cancel), 0, std::nullopt});
    st.idle.push_back(size - 1 - i);
  }
  st.share = std::make_unique<domain::fair_share<db_dispatcher_state::pending>>(
      std::max<std::size_t>(1, size - 1));
  st.timeout = timeout;
  st.tick = std::clamp<std::chrono::milliseconds>(timeout / 10, std::chrono::milliseconds{10},
                                                  std::chrono::seconds{1});
  st.load = std::move(load);
  self->delayed_send(self, st.tick, tick_atom::value);
  return {
      [self](db_task& task) { return self->state.run(self, task); },
      [self](done_atom, std::size_t worker, std::uint64_t owner) {
        self->state.done(worker, owner);
      },
      [self](tick_atom) { self->state.cancel_overdue(self); },
  };
}

} // namespace vcs::actors
