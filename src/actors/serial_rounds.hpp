#pragma once

#include "domain/timestamp.hpp"

#include <caf/typed_response_promise.hpp>

#include <deque>
#include <optional>

namespace vcs::actors {

// A scheduler's rounds, one at a time: a timer's round is skipped while
// another runs or waits (the next tick comes soon enough), and a round asked
// for waits its turn, then answers its asker with what it did (`Counts`).
template <class Counts> class serial_rounds {
public:
  struct round {
    domain::timestamp now{};
    // Empty for a timer's round: nobody waits for it.
    std::optional<caf::typed_response_promise<Counts>> reply;
  };

  // The timer's round as of `now`, to begin now; nullopt when skipped.
  std::optional<round> tick(domain::timestamp now) {
    if (running_ || !waiting_.empty())
      return std::nullopt;
    running_ = true;
    return round{now, std::nullopt};
  }

  // A round asked for: returned when it begins now, else it waits.
  std::optional<round> ask(round r) {
    if (running_) {
      waiting_.push_back(std::move(r));
      return std::nullopt;
    }
    running_ = true;
    return r;
  }

  // The running round ended: the next to begin, if one waits.
  std::optional<round> finished() {
    running_ = !waiting_.empty();
    if (!running_)
      return std::nullopt;
    auto next = std::move(waiting_.front());
    waiting_.pop_front();
    return next;
  }

private:
  bool running_ = false;
  std::deque<round> waiting_;
};

} // namespace vcs::actors
