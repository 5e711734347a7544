#pragma once

#include "actors/actor_error.hpp"
#include "actors/db_pool.hpp"
#include "storage/storage_error.hpp"

#include <caf/typed_response_promise.hpp>
#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <any>
#include <deque>
#include <functional>
#include <optional>
#include <variant>
#include <vector>

namespace vcs::actors {

// Group commit for an entity actor: writes submitted while a transaction is
// in flight wait here and all go into the next transaction, each under its
// own savepoint so one failing write does not undo the others.
class group_commit {
public:
  using work_fn = std::function<std::any(soci::session&)>;

  explicit group_commit(std::size_t max_batch = 256) : max_batch_(max_batch) {}

  using prologue_fn = std::function<void(soci::session&)>;

  // Runs first in every batch's transaction: an entity takes its row lock
  // here, so what the actor serialises in one node is serialised across
  // nodes too.
  void set_prologue(prologue_fn p) { prologue_ = std::move(p); }

  // Whose writes these are (db_task::owner): the entity's tenant.
  void set_owner(std::uint64_t owner) noexcept { owner_ = owner; }

  // 1 turns batching off: every write gets its own transaction.
  void set_max_batch(std::size_t n) noexcept { max_batch_ = std::max<std::size_t>(1, n); }

  bool busy() const noexcept { return in_flight_ || !queue_.empty(); }

  // Queues `work` (run inside a transaction on a database worker); its
  // result, cast to T, fulfils the returned promise once the batch commits.
  template <class T, class Self>
  caf::typed_response_promise<T> submit(Self* self, const db_pool& pool, work_fn work) {
    auto rp = self->template make_response_promise<T>();
    run(
        self, pool, std::move(work),
        [rp](std::any& v) mutable { rp.deliver(std::any_cast<T&>(v)); },
        [rp](const caf::error& e) mutable { rp.deliver(e); });
    return rp;
  }

  // Queues `work`; `done` or `failed` runs in the actor once the batch
  // holding it committed or failed.
  template <class Self>
  void run(Self* self, const db_pool& pool, work_fn work, std::function<void(std::any&)> done,
           std::function<void(const caf::error&)> failed) {
    queue_.push_back(job{std::move(work), std::move(done), std::move(failed)});
    if (!in_flight_)
      flush(self, pool);
  }

private:
  struct job {
    work_fn work;
    std::function<void(std::any&)> deliver;
    std::function<void(const caf::error&)> fail;
  };
  using outcome = std::variant<std::any, domain::error>;

  // Every write of the batch in one transaction without savepoints: three
  // round trips fewer per write, which under load each wait for a core.
  // Nothing when one write fails (its transaction rolled back): the batch
  // then runs again with a savepoint per write. Writes only read what they
  // captured, so running one twice is safe.
  static std::optional<std::vector<outcome>> run_optimistic(soci::session& sql,
                                                            const prologue_fn& prologue,
                                                            const std::vector<work_fn>& works) {
    std::vector<outcome> out;
    out.reserve(works.size());
    soci::transaction tx{sql};
    if (prologue)
      prologue(sql);
    try {
      for (const auto& w : works)
        out.emplace_back(w(sql));
    } catch (const std::exception& e) {
      if (storage::is_connection_error(e))
        throw;
      return std::nullopt;
    }
    tx.commit();
    return out;
  }

  static std::vector<outcome> run_batch(soci::session& sql, const prologue_fn& prologue,
                                        const std::vector<work_fn>& works) {
    if (works.size() > 1)
      if (auto all = run_optimistic(sql, prologue, works))
        return std::move(*all);
    std::vector<outcome> out;
    out.reserve(works.size());
    soci::transaction tx{sql};
    if (prologue)
      prologue(sql);
    // A lone write needs no savepoint: its failure is the transaction's.
    if (works.size() == 1) {
      try {
        out.emplace_back(works[0](sql));
      } catch (const std::exception& e) {
        if (storage::is_connection_error(e))
          throw;
        out.emplace_back(failed(e));
        return out;
      }
      tx.commit();
      return out;
    }
    for (const auto& w : works) {
      sql << "SAVEPOINT vcs_job";
      try {
        out.emplace_back(w(sql));
        sql << "RELEASE SAVEPOINT vcs_job";
      } catch (const std::exception& e) {
        if (storage::is_connection_error(e))
          throw;
        sql << "ROLLBACK TO SAVEPOINT vcs_job";
        out.emplace_back(failed(e));
      }
    }
    tx.commit();
    return out;
  }

  static domain::error failed(const std::exception& e) {
    auto err = storage::translate(e);
    if (err.code == domain::errc::internal)
      spdlog::error("write failed: {}", e.what());
    return err;
  }

  template <class Self> void flush(Self* self, const db_pool& pool) {
    std::vector<job> batch;
    while (!queue_.empty() && batch.size() < max_batch_) {
      batch.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    if (batch.empty())
      return;
    in_flight_ = true;
    std::vector<work_fn> works;
    works.reserve(batch.size());
    for (auto& j : batch)
      works.push_back(std::move(j.work));
    auto shared = std::make_shared<std::vector<job>>(std::move(batch));
    db_task task{[prologue = prologue_, works = std::move(works)](soci::session& sql) -> std::any {
                   return run_batch(sql, prologue, works);
                 },
                 owner_};
    auto finish = [this, self, &pool] {
      in_flight_ = false;
      flush(self, pool);
    };
    self->request(pool.dispatcher(), pool.timeout(), std::move(task))
        .then(
            [shared, finish](db_value& v) {
              auto& outcomes = std::any_cast<std::vector<outcome>&>(v.value);
              for (std::size_t i = 0; i < shared->size(); ++i) {
                if (auto* value = std::get_if<std::any>(&outcomes[i]))
                  (*shared)[i].deliver(*value);
                else
                  (*shared)[i].fail(make_error(std::get<domain::error>(outcomes[i])));
              }
              finish();
            },
            [shared, finish](caf::error& e) {
              for (auto& j : *shared)
                j.fail(e);
              finish();
            });
  }

  std::deque<job> queue_;
  prologue_fn prologue_;
  std::uint64_t owner_ = 0;
  bool in_flight_ = false;
  std::size_t max_batch_;
};

} // namespace vcs::actors
