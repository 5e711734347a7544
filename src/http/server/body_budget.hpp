#pragma once

// The bytes of bulk request bodies a node holds at once (`large-body-memory`):
// each such body takes a lease of its size when its header arrives (its
// declared length, or as it grows when sent in chunks) and gives it back
// when its request is over, parsed rows included. A body that does not fit
// is answered 503 with Retry-After before it is read, so a few huge bodies
// cannot take the node's memory, whoever sends them. Thread-safe.

#include <atomic>
#include <cstddef>
#include <memory>

namespace vcs::http {

class body_budget : public std::enable_shared_from_this<body_budget> {
public:
  // 0: an eighth of the machine's memory.
  explicit body_budget(std::size_t limit);

  class lease {
  public:
    lease(std::shared_ptr<body_budget> budget, std::size_t bytes) noexcept
        : budget_(std::move(budget)), bytes_(bytes) {}
    ~lease();
    lease(const lease&) = delete;
    lease& operator=(const lease&) = delete;
    // Holds `bytes` in all (more than now); false, holding what it held,
    // when the budget has no room for them.
    bool grow_to(std::size_t bytes) noexcept;

  private:
    std::shared_ptr<body_budget> budget_;
    std::size_t bytes_;
  };

  // A lease of `bytes`, or null when they do not fit.
  std::shared_ptr<lease> take(std::size_t bytes);
  std::size_t limit() const noexcept { return limit_; }
  std::size_t held() const noexcept { return held_.load(std::memory_order_relaxed); }

private:
  bool reserve(std::size_t bytes) noexcept;
  void give_back(std::size_t bytes) noexcept;

  std::size_t limit_;
  std::atomic<std::size_t> held_{0};
};

} // namespace vcs::http
