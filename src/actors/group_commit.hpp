#pragma once

#include "actors/actor_error.hpp"
#include "actors/db_pool.hpp"
#include "actors/db_task.hpp"
#include "storage/write_batch.hpp"

#include <caf/typed_response_promise.hpp>
#include <soci/soci.h>

#include <any>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

namespace vcs::actors {

// A write's value: what a work returns, or the T of a domain::result<T> it
// returns (an error result refuses the write: its effects are undone and
// the error answers it).
template <class R> struct written_value { using type = R; };
template <class T> struct written_value<domain::result<T>> { using type = T; };
template <class Work>
using written_value_t =
    typename written_value<std::invoke_result_t<const Work&, soci::session&>>::type;

// Group commit for an entity actor: writes submitted while a transaction is
// in flight wait here and all go into the next transaction, which
// storage::run_write_batch runs (one failing write does not undo the
// others). Each write's value comes back in the batch's reply
// (storage::batch_outcome) and goes, typed again, to its `done` in the actor.
class group_commit {
public:
  explicit group_commit(std::size_t max_batch = 256) : max_batch_(max_batch) {}

  // Starts every batch's transaction (without one: a plain BEGIN): an entity
  // takes its row lock here, in the same round trip as the BEGIN
  // (storage::begin_with), so what the actor serialises in one node is
  // serialised across nodes too. A refusal answers every write of the
  // batch, none of which runs.
  void set_prologue(storage::batch_prologue p) { prologue_ = std::move(p); }

  // Called in the actor after a batch the prologue refused, once the next
  // batch (if any) is under way: an actor for an entity that does not exist
  // retires instead of idling.
  void set_on_refused(std::function<void()> f) { on_refused_ = std::move(f); }

  // Whose writes these are (db_task::owner): the entity's tenant.
  void set_owner(std::uint64_t owner) noexcept { owner_ = owner; }

  // 1 turns batching off: every write gets its own transaction.
  void set_max_batch(std::size_t n) noexcept { max_batch_ = std::max<std::size_t>(1, n); }

  // A write still queued this long after it came is dropped unrun: its
  // client has had its answer (zero: no limit).
  void set_max_wait(std::chrono::milliseconds wait) noexcept { max_wait_ = wait; }

  bool busy() const noexcept { return in_flight_ || !queue_.empty(); }

  // A write's place in line (what run answers). While last_queued(t), the
  // write has not left for the database and none was queued after it: the
  // actor may still add to what it does without reordering any writes.
  using ticket = std::uint64_t;
  bool last_queued(ticket t) const noexcept { return t >= taken_ && t + 1 == next_ticket_; }

  // Queues `work(session)` (run inside a transaction on a database worker);
  // its result fulfils the returned promise once the batch commits.
  template <class Self, class Work> auto submit(Self* self, const db_pool& pool, Work work) {
    using result_type = written_value_t<Work>;
    auto rp = self->template make_response_promise<result_type>();
    run(
        self, pool, std::move(work), [rp](result_type& v) mutable { rp.deliver(std::move(v)); },
        [rp](const caf::error& e) mutable { rp.deliver(e); });
    return rp;
  }

  // Queues `work(session)`; `done` gets its result, or `failed` the error,
  // in the actor once the batch holding it committed or failed.
  template <class Self, class Work, class Done, class Failed>
  ticket run(Self* self, const db_pool& pool, Work work, Done done, Failed failed) {
    using result_type = written_value_t<Work>;
    const ticket place = next_ticket_++;
    queue_.push_back(
        job{[work = std::move(work)](soci::session& sql) -> storage::write_result {
              if constexpr (std::is_same_v<result_type,
                                           std::invoke_result_t<const Work&, soci::session&>>)
                return std::any{work(sql)};
              else {
                auto r = work(sql);
                if (!r)
                  return std::move(r).err();
                return std::any{std::move(*r)};
              }
            },
            [done = std::move(done)](std::any& value) mutable {
              done(std::any_cast<result_type&>(value));
            },
            std::move(failed), std::chrono::steady_clock::now() + max_wait_});
    if (!in_flight_)
      flush(self, pool);
    return place;
  }

private:
  struct job {
    storage::batch_write work;
    // Takes the write's value out of the batch's reply.
    std::function<void(std::any&)> deliver;
    std::function<void(const caf::error&)> fail;
    std::chrono::steady_clock::time_point due;
  };

  template <class Self> void flush(Self* self, const db_pool& pool) {
    std::vector<job> batch;
    const auto now = std::chrono::steady_clock::now();
    while (!queue_.empty() && batch.size() < max_batch_) {
      auto next = std::move(queue_.front());
      queue_.pop_front();
      ++taken_;
      if (max_wait_.count() > 0 && now > next.due)
        next.fail(make_error(domain::not_run_in_time()));
      else
        batch.push_back(std::move(next));
    }
    if (batch.empty())
      return;
    in_flight_ = true;
    std::vector<storage::batch_write> works;
    works.reserve(batch.size());
    for (auto& j : batch)
      works.push_back(std::move(j.work));
    db_task task{[prologue = prologue_, works = std::move(works)](soci::session& sql) -> std::any {
                   return storage::run_write_batch(sql, prologue, works);
                 },
                 owner_};
    auto waiting = std::make_shared<std::vector<job>>(std::move(batch));
    auto finish = [this, self, &pool] {
      in_flight_ = false;
      flush(self, pool);
    };
    self->request(pool.dispatcher(), pool.timeout(), std::move(task))
        .then(
            [this, waiting, finish](db_result& r) {
              auto& outcome = std::any_cast<storage::batch_outcome&>(r.value);
              for (std::size_t i = 0; i < waiting->size(); ++i) {
                if (auto& written = outcome.writes[i])
                  (*waiting)[i].deliver(*written);
                else
                  (*waiting)[i].fail(make_error(written.err()));
              }
              finish();
              if (outcome.refused && on_refused_)
                on_refused_();
            },
            [waiting, finish](caf::error& e) {
              for (auto& j : *waiting)
                j.fail(e);
              finish();
            });
  }

  std::deque<job> queue_;
  storage::batch_prologue prologue_;
  std::function<void()> on_refused_;
  std::uint64_t owner_ = 0;
  ticket next_ticket_ = 0;
  // Writes that have left the queue (run or dropped), in queue order.
  ticket taken_ = 0;
  bool in_flight_ = false;
  std::size_t max_batch_;
  std::chrono::milliseconds max_wait_{0};
};

} // namespace vcs::actors
