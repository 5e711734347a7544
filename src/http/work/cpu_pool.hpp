#pragma once

// The CPU-heavy steps of requests (password hashing, parsing and validating
// bulk bodies) run here, on `threads` threads of their own at a lower CPU
// priority (nice 10), never on a request worker's thread: by default every
// core but one, so whatever tenants send, the scheduler keeps serving the
// I/O threads, light requests and PostgreSQL first, and an idle node still
// gives the heavy steps every core they may use. The request worker does
// not wait for a step (its continuation comes back as a message), so the
// pool keeps its own fair share: one queue per client (API key), served
// round robin, and at most `per_client_jobs` jobs queued or running per
// client. Thread-safe.

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace vcs::http {

class cpu_pool {
public:
  // 0 threads: every core but one (at least one); 0 jobs: no limit.
  cpu_pool(std::size_t threads, std::size_t per_client_jobs);
  // Stops: the threads finish the jobs queued, then end (stop, joined).
  ~cpu_pool();
  void stop();
  cpu_pool(const cpu_pool&) = delete;
  cpu_pool& operator=(const cpu_pool&) = delete;

  // Queues `job` for `client`; false (nothing queued) when the client
  // already has its most jobs queued or running, or the pool has stopped.
  bool post(std::uint64_t client, std::function<void()> job);

  // Threads a step may spread over (at most `most`): the one running it, the
  // pool's idle ones, and one for the core the pool leaves to the rest of the
  // node (the step's threads run at nice 10 like the pool's, so that core's
  // other work still comes first). A step alone on the node uses every core.
  unsigned width(unsigned most);

private:
  struct client_jobs {
    std::deque<std::function<void()>> queue;
    // Queued or running.
    std::size_t held = 0;
    bool in_rotation = false;
  };

  void work();

  std::size_t per_client_jobs_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::unordered_map<std::uint64_t, client_jobs> clients_;
  // Clients with queued jobs, in turn order.
  std::deque<std::uint64_t> rotation_;
  unsigned idle_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

} // namespace vcs::http
