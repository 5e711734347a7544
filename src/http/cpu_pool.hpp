#pragma once

// The CPU-heavy steps of requests (password hashing, parsing and validating
// bulk bodies) run here, on `threads` threads of their own at a lower CPU
// priority (nice 10), never on a request worker's thread: by default every
// core but one, so whatever tenants send, the scheduler keeps serving the
// I/O threads, light requests and PostgreSQL first, and an idle node still
// gives the heavy steps every core they may use. The request worker waits
// for its step (that tenant's share of workers). Thread-safe.

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace vcs::http {

class cpu_pool {
public:
  // 0 threads: every core but one (at least one).
  explicit cpu_pool(std::size_t threads);
  ~cpu_pool();
  cpu_pool(const cpu_pool&) = delete;
  cpu_pool& operator=(const cpu_pool&) = delete;

  // Runs `step()` on a pool thread and waits for its result (or exception).
  template <class Step> std::invoke_result_t<Step> run(Step&& step) {
    using result = std::invoke_result_t<Step>;
    std::packaged_task<result()> task{std::forward<Step>(step)};
    auto done = task.get_future();
    post([&task] { task(); });
    return done.get();
  }

  // Runs `step(threads)` on a pool thread, where `threads` (at most `most`)
  // counts that thread and the pool's idle ones: a step alone on the node may
  // spread over every permitted core, one that has to share gets one.
  template <class Step> std::invoke_result_t<Step, unsigned> run_wide(unsigned most, Step&& step) {
    return run([this, most, &step] { return step(std::max(1u, std::min(most, idle() + 1))); });
  }

private:
  void post(std::function<void()> job);
  unsigned idle();
  void work();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  unsigned idle_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

} // namespace vcs::http
