#include "http/work/cpu_pool.hpp"

#include <sys/resource.h>
#include <unistd.h>

namespace vcs::http {

cpu_pool::cpu_pool(std::size_t threads, std::size_t per_client_jobs)
    : per_client_jobs_(per_client_jobs) {
  if (threads == 0)
    threads = std::max(2u, std::thread::hardware_concurrency()) - 1;
  for (std::size_t i = 0; i < threads; ++i)
    threads_.emplace_back([this] { work(); });
}

cpu_pool::~cpu_pool() {
  stop();
}

void cpu_pool::stop() {
  {
    std::lock_guard lock{mutex_};
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_)
    t.join();
  threads_.clear();
}

bool cpu_pool::post(std::uint64_t client, std::function<void()> job) {
  {
    std::lock_guard lock{mutex_};
    if (stopping_)
      return false;
    auto& c = clients_[client];
    if (per_client_jobs_ != 0 && c.held >= per_client_jobs_)
      return false;
    ++c.held;
    c.queue.push_back(std::move(job));
    if (!c.in_rotation) {
      c.in_rotation = true;
      rotation_.push_back(client);
    }
  }
  wake_.notify_one();
  return true;
}

unsigned cpu_pool::width(unsigned most) {
  std::lock_guard lock{mutex_};
  return std::max(1u, std::min(most, idle_ + 2));
}

void cpu_pool::work() {
  // Linux gives each thread its own nice value; threads a step starts
  // (bulk validation slices) inherit it.
  ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 10);
  std::unique_lock lock{mutex_};
  for (;;) {
    ++idle_;
    wake_.wait(lock, [this] { return stopping_ || !rotation_.empty(); });
    --idle_;
    if (rotation_.empty())
      return; // stopping, nothing left
    // Round robin: the client in turn gives its oldest job and goes to the
    // back of the line if it has more.
    const auto client = rotation_.front();
    rotation_.pop_front();
    auto& c = clients_[client];
    auto job = std::move(c.queue.front());
    c.queue.pop_front();
    if (c.queue.empty())
      c.in_rotation = false;
    else
      rotation_.push_back(client);
    lock.unlock();
    job();
    lock.lock();
    auto& done = clients_[client];
    if (--done.held == 0 && done.queue.empty())
      clients_.erase(client);
  }
}

} // namespace vcs::http
