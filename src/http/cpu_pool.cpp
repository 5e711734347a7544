#include "http/cpu_pool.hpp"

#include <sys/resource.h>
#include <unistd.h>

namespace vcs::http {

cpu_pool::cpu_pool(std::size_t threads) {
  if (threads == 0)
    threads = std::max(2u, std::thread::hardware_concurrency()) - 1;
  for (std::size_t i = 0; i < threads; ++i)
    threads_.emplace_back([this] { work(); });
}

cpu_pool::~cpu_pool() {
  {
    std::lock_guard lock{mutex_};
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_)
    t.join();
}

void cpu_pool::post(std::function<void()> job) {
  {
    std::lock_guard lock{mutex_};
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

unsigned cpu_pool::idle() {
  std::lock_guard lock{mutex_};
  return idle_;
}

void cpu_pool::work() {
  // Linux gives each thread its own nice value; threads a step starts
  // (bulk validation slices) inherit it.
  ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 10);
  std::unique_lock lock{mutex_};
  for (;;) {
    ++idle_;
    wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    --idle_;
    if (jobs_.empty())
      return; // stopping, nothing left
    auto job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    job();
    lock.lock();
  }
}

} // namespace vcs::http
