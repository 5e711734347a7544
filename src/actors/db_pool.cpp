#include "actors/db_pool.hpp"

#include "actors/db_worker.hpp"

#include <caf/actor_system.hpp>
#include <caf/send.hpp>
#include <caf/spawn_options.hpp>

#include <algorithm>

namespace vcs::actors {

db_pool db_pool::spawn(caf::actor_system& sys, const std::string& url, std::size_t size,
                       std::chrono::milliseconds timeout) {
  db_pool pool;
  pool.timeout_ = timeout;
  for (std::size_t i = 0; i < std::max<std::size_t>(1, size); ++i) {
    auto load = std::make_shared<std::atomic<int>>(0);
    pool.workers_.push_back(sys.spawn<caf::detached>(db_worker, url, load));
    pool.loads_.push_back(std::move(load));
  }
  return pool;
}

db_worker_actor db_pool::pick() const {
  return workers_[pick_least_loaded(loads_)];
}

bool db_pool::saturated() const {
  return !loads_.empty() && std::all_of(loads_.begin(), loads_.end(), [](const auto& l) {
    return l->load(std::memory_order_relaxed) >= 2;
  });
}

void db_pool::shutdown() {
  for (auto& w : workers_)
    caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
  workers_.clear();
  loads_.clear();
}

} // namespace vcs::actors
