#pragma once

#include "actors/campaign_messages.hpp"
#include "domain/lead.hpp"

#include <caf/error.hpp>
#include <caf/typed_response_promise.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <iterator>
#include <utility>
#include <vector>

namespace vcs::actors {

// A bulk removal worked through in transactions of at most
// domain::lead_removal_chunk_items items, one after another: a 100,000-item
// removal is not one long transaction and one burst of WAL that every
// other tenant's commit waits behind, and the campaign's other writes and
// other tenants' jobs go between its transactions. The spec processes each
// item individually, so a later item naming a lead an earlier one removed
// finds it gone, as in one transaction. No transaction starts after the
// request's answer deadline (`due`): its client has had a 503 by then, and
// what committed is the outcome its Idempotency-Key learns.
class lead_removal_run {
public:
  using promise = caf::typed_response_promise<lead_outcomes>;
  using clock = std::chrono::steady_clock;

  lead_removal_run(std::vector<domain::lead_removal> items, promise rp, clock::time_point due)
      : items_(std::move(items)), rp_(std::move(rp)), due_(due) {
    done_.items.reserve(items_.size());
  }

  bool in_time() const { return clock::now() < due_; }

  // The next transaction's items, moved out (none for an empty request,
  // whose one transaction still answers whether the campaign exists).
  std::vector<domain::lead_removal> next_chunk() {
    const auto from = done_.items.size();
    const auto to = std::min(items_.size(), from + domain::lead_removal_chunk_items);
    auto at = [this](std::size_t i) {
      return std::make_move_iterator(items_.begin() + static_cast<std::ptrdiff_t>(i));
    };
    return {at(from), at(to)};
  }

  // Takes a committed transaction's outcomes; whether items remain.
  bool add(const lead_outcomes& chunk) {
    done_.items.insert(done_.items.end(), chunk.items.begin(), chunk.items.end());
    return done_.items.size() < items_.size();
  }

  void deliver() { rp_.deliver(std::move(done_)); }

  // Ends the run early: the committed outcomes answer and the items not
  // reached are not_run, so the client knows which to send again.
  void stop() {
    done_.items.resize(items_.size(), domain::lead_outcome::not_run);
    rp_.deliver(std::move(done_));
  }

  // A transaction failed: before anything committed its error answers, as
  // for any write; after, the run stops.
  void fail(const caf::error& e) {
    if (done_.items.empty())
      rp_.deliver(e);
    else
      stop();
  }

private:
  std::vector<domain::lead_removal> items_;
  promise rp_;
  clock::time_point due_;
  lead_outcomes done_;
};

} // namespace vcs::actors
