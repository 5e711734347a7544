#include "actors/db_pool.hpp"

#include "actors/db_dispatcher.hpp"

#include <caf/actor_system.hpp>
#include <caf/send.hpp>

#include <algorithm>

namespace vcs::actors {

db_pool db_pool::spawn(caf::actor_system& sys, const std::string& url, std::size_t size,
                       std::chrono::milliseconds timeout) {
  db_pool pool;
  pool.timeout_ = timeout;
  size = std::max<std::size_t>(1, size);
  auto load = std::make_shared<db_load>(size);
  pool.dispatcher_ = sys.spawn(db_dispatcher, url, size, timeout, load);
  pool.load_ = std::move(load);
  return pool;
}

bool db_pool::saturated() const {
  if (!load_)
    return false;
  const auto busy = load_->busy.load(std::memory_order_relaxed);
  const auto waiting = load_->waiting.load(std::memory_order_relaxed);
  return busy >= load_->workers && waiting >= load_->workers;
}

db_pool::load_figures db_pool::load() const {
  if (!load_)
    return {};
  return {.workers = load_->workers,
          .busy = load_->busy.load(std::memory_order_relaxed),
          .waiting = load_->waiting.load(std::memory_order_relaxed),
          .started = load_->started.load(std::memory_order_relaxed),
          .waited_seconds =
              static_cast<double>(load_->waited_ns.load(std::memory_order_relaxed)) / 1e9};
}

void db_pool::shutdown() {
  if (dispatcher_)
    caf::anon_send_exit(dispatcher_, caf::exit_reason::user_shutdown);
  dispatcher_ = nullptr;
}

} // namespace vcs::actors
