#pragma once

// Max-min fair sharing of a few workers among owners (tenants). Jobs wait in
// one FIFO queue per owner. The next job comes from the waiting owner that
// holds the fewest workers, the one waiting longest among equals, so a
// newcomer's first job goes ahead of a busy owner's backlog. No owner holds
// more than `cap` workers at once; below that the sharing is work-conserving:
// an owner alone may keep `cap` workers busy. Not thread-safe: the owner of
// the workers serialises access.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <utility>

namespace vcs::domain {

template <class Job> class fair_share {
public:
  explicit fair_share(std::size_t cap) : cap_(std::max<std::size_t>(1, cap)) {}

  void push(std::uint64_t owner, Job job) {
    auto& o = owners_[owner];
    if (o.queue.empty())
      turn_.push_back(owner);
    o.queue.push_back(std::move(job));
    ++waiting_;
  }

  // The next job to start, counted as running for its owner; nullopt when
  // nothing waits or every owner that waits holds its cap.
  std::optional<std::pair<std::uint64_t, Job>> next() {
    auto best = turn_.end();
    std::size_t fewest = cap_;
    for (auto it = turn_.begin(); it != turn_.end(); ++it) {
      const auto running = owners_.find(*it)->second.running;
      if (running < fewest) {
        best = it;
        fewest = running;
      }
    }
    if (best == turn_.end())
      return std::nullopt;
    const auto owner = *best;
    turn_.erase(best);
    auto& o = owners_[owner];
    std::pair<std::uint64_t, Job> out{owner, std::move(o.queue.front())};
    o.queue.pop_front();
    --waiting_;
    ++o.running;
    ++running_;
    // Round robin among equals: an owner with more goes to the back.
    if (!o.queue.empty())
      turn_.push_back(owner);
    return out;
  }

  // A job of `owner` that next() handed out has finished.
  void finished(std::uint64_t owner) {
    auto it = owners_.find(owner);
    if (it == owners_.end() || it->second.running == 0)
      return;
    --it->second.running;
    --running_;
    if (it->second.running == 0 && it->second.queue.empty())
      owners_.erase(it);
  }

  std::size_t waiting() const noexcept { return waiting_; }
  // Jobs of `owner` waiting.
  std::size_t waiting(std::uint64_t owner) const {
    const auto it = owners_.find(owner);
    return it == owners_.end() ? 0 : it->second.queue.size();
  }
  std::size_t running() const noexcept { return running_; }

private:
  struct owner_state {
    std::deque<Job> queue;
    std::size_t running = 0;
  };

  std::size_t cap_;
  std::unordered_map<std::uint64_t, owner_state> owners_;
  // Owners with jobs waiting, longest waiting first.
  std::deque<std::uint64_t> turn_;
  std::size_t waiting_ = 0;
  std::size_t running_ = 0;
};

} // namespace vcs::domain
