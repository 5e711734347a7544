#include "actors/billing_scheduler.hpp"

#include "actors/actor_error.hpp"
#include "actors/ask_database.hpp"
#include "actors/work_counters.hpp"
#include "storage/subscription_repository.hpp"

#include <caf/event_based_actor.hpp>
#include <spdlog/spdlog.h>

#include <thread>

namespace vcs::actors {

namespace {

using self_ptr = billing_scheduler_actor::stateful_pointer<billing_scheduler_state>;

constexpr int32_t page_size = 200;
// How long a sweep asked for on demand waits for another node's sweep.
constexpr auto lock_wait = std::chrono::seconds(20);

void begin(self_ptr self, serial_rounds<sweep_counts>::round next);

void finish(self_ptr self, const std::optional<caf::error>& failure) {
  auto& st = self->state;
  if (st.reply) {
    if (failure)
      st.reply->deliver(*failure);
    else
      st.reply->deliver(st.counts);
  }
  if (!failure && (st.counts.subscriptions > 0 || st.counts.overdue > 0))
    spdlog::info("billing sweep: {} subscriptions, {} overdue, {} past_due, {} blocked, "
                 "{} periods renewed, {} failed",
                 st.counts.subscriptions, st.counts.overdue, st.counts.past_due, st.counts.blocked,
                 st.counts.renewed, st.counts.failed);
  st.reply.reset();
  if (auto next = st.rounds.finished())
    begin(self, std::move(*next));
}

void release(self_ptr self, std::optional<caf::error> failure) {
  // A sweep this node ran (or tried to: the database failed it) ends here.
  ++(failure ? counters().billing_sweeps_failed : counters().billing_sweeps);
  ask_database(
      self, self->state.lock_worker, self->state.config->pool->timeout(), 0,
      [](soci::session& sql) {
        storage::release_sweep_lock(sql);
        return true;
      },
      [self, failure](bool) { finish(self, failure); },
      [self, failure](const caf::error&) { finish(self, failure); });
}

void next_page(self_ptr self) {
  auto& st = self->state;
  auto now = st.now;
  auto after = st.after;
  ask_database(
      self, st.lock_worker, st.config->pool->timeout(), 0,
      [now, after](soci::session& sql) {
        return storage::subscriptions_to_sweep(sql, now, after, page_size);
      },
      [self](const std::vector<storage::subscription_ref>& refs) {
        auto& st = self->state;
        if (refs.empty())
          return release(self, std::nullopt);
        st.after = refs.back().subscription_id;
        st.outstanding = refs.size();
        auto done = [self](const sweep_counts& c) {
          auto& st = self->state;
          st.counts += c;
          if (--st.outstanding == 0)
            next_page(self);
        };
        auto failed = [self, done](const caf::error& e) {
          spdlog::warn("billing sweep of a subscription failed: {}", to_domain_error(e).message);
          sweep_counts c;
          c.failed = 1;
          done(c);
        };
        auto timeout = st.config->pool->timeout();
        for (const auto& ref : refs)
          self->request(st.registry, timeout, caf::get_atom::value, subscr_atom::value,
                        ref.tenant_id, ref.subscription_id)
              .then(
                  [self, done, failed, timeout, now = st.now](subscription_actor& sub) {
                    self->request(sub, timeout, sweep_atom::value, sweep_request{now})
                        .then([done](sweep_counts& c) { done(c); },
                              [failed](caf::error& e) { failed(e); });
                  },
                  [failed](caf::error& e) { failed(e); });
      },
      [self](const caf::error& e) { release(self, e); });
}

void begin(self_ptr self, serial_rounds<sweep_counts>::round next) {
  auto& st = self->state;
  st.now = next.now;
  st.reply = std::move(next.reply);
  st.counts = {};
  st.after = 0;
  st.outstanding = 0;
  bool wait = st.reply.has_value();
  auto now = st.now;
  // The lock worker is detached: waiting for the lock blocks only it.
  ask_database(
      self, st.lock_worker, st.config->pool->timeout() + lock_wait, 0,
      [wait, now](soci::session& sql) -> int64_t {
        auto deadline = std::chrono::steady_clock::now() + lock_wait;
        while (!storage::try_sweep_lock(sql)) {
          if (!wait || std::chrono::steady_clock::now() > deadline)
            return -1;
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return storage::mark_unlinked_overdue(sql, now);
      },
      [self](int64_t overdue) {
        if (overdue < 0)
          return finish(self, make_error({domain::errc::unavailable,
                                          "Another node is running the billing sweep; "
                                          "try again shortly"}));
        self->state.counts.overdue += overdue;
        next_page(self);
      },
      [self](const caf::error& e) { release(self, e); });
}

} // namespace

billing_scheduler_actor::behavior_type
billing_scheduler(billing_scheduler_actor::stateful_pointer<billing_scheduler_state> self,
                  entity_config_ptr config, registry_actor registry, db_worker_actor lock_worker,
                  std::chrono::milliseconds interval) {
  self->state.config = std::move(config);
  self->state.registry = std::move(registry);
  self->state.lock_worker = std::move(lock_worker);
  self->state.interval = interval;
  self->send(self, tick_atom::value);
  return {
      [self](tick_atom) {
        if (auto round = self->state.rounds.tick(domain::now()))
          begin(self, std::move(*round));
        self->delayed_send(self, self->state.interval, tick_atom::value);
      },
      [self](sweep_atom, sweep_request req) -> caf::result<sweep_counts> {
        auto rp = self->make_response_promise<sweep_counts>();
        if (auto round = self->state.rounds.ask({req.now, rp}))
          begin(self, std::move(*round));
        return rp;
      },
  };
}

} // namespace vcs::actors
