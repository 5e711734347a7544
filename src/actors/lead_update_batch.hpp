#pragma once

#include "actors/campaign_messages.hpp"
#include "actors/group_commit.hpp"
#include "domain/lead.hpp"

#include <caf/typed_response_promise.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace vcs::actors {

// The lead updates of several requests in one write: one statement for all
// of them instead of one per request. storage::update_leads applies the
// items naming one phone number in the order given, so the statement does
// what the requests would have done one by one. The requests share the
// write's fate: its failure (items are validated before they come, so what
// fails it is the database: time or connection) and its wait limit, counted
// from the first request's arrival, after which the write is dropped unrun.
class lead_update_batch {
public:
  using promise = caf::typed_response_promise<lead_outcomes>;

  // No larger than one bulk update request may be.
  static constexpr std::size_t max_items = domain::bulk_update_max_items;

  // Where the batch's write stands in the campaign's group commit.
  group_commit::ticket ticket = 0;

  bool fits(std::size_t n) const noexcept { return items_.size() + n <= max_items; }

  void add(std::vector<domain::lead_update>&& items, promise rp) {
    waiting_.emplace_back(std::move(rp), items.size());
    items_.insert(items_.end(), std::make_move_iterator(items.begin()),
                  std::make_move_iterator(items.end()));
  }

  const std::vector<domain::lead_update>& items() const noexcept { return items_; }

  // Answers each request with its own items' outcomes, in order.
  void deliver(const lead_outcomes& all) {
    auto next = all.items.begin();
    for (auto& [rp, count] : waiting_) {
      const auto end = next + static_cast<std::ptrdiff_t>(count);
      rp.deliver(lead_outcomes{{next, end}});
      next = end;
    }
  }

  void fail(const caf::error& e) {
    for (auto& [rp, count] : waiting_)
      rp.deliver(e);
  }

private:
  std::vector<domain::lead_update> items_;
  std::vector<std::pair<promise, std::size_t>> waiting_;
};

} // namespace vcs::actors
