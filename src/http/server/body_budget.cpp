#include "http/server/body_budget.hpp"

#include <algorithm>

#include <unistd.h>

namespace vcs::http {

namespace {

std::size_t an_eighth_of_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0)
    return std::size_t{1} << 30; // unknown: 1 GiB
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size) / 8;
}

} // namespace

body_budget::body_budget(std::size_t limit) : limit_(limit ? limit : an_eighth_of_memory()) {}

body_budget::lease::~lease() {
  budget_->give_back(bytes_);
}

bool body_budget::lease::grow_to(std::size_t bytes) noexcept {
  if (bytes <= bytes_)
    return true;
  if (!budget_->reserve(bytes - bytes_))
    return false;
  bytes_ = bytes;
  return true;
}

std::shared_ptr<body_budget::lease> body_budget::take(std::size_t bytes) {
  if (!reserve(bytes))
    return nullptr;
  return std::make_shared<lease>(shared_from_this(), bytes);
}

bool body_budget::reserve(std::size_t bytes) noexcept {
  std::size_t held = held_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit_ - std::min(held, limit_))
      return false;
  } while (!held_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
  return true;
}

void body_budget::give_back(std::size_t bytes) noexcept {
  held_.fetch_sub(bytes, std::memory_order_relaxed);
}

} // namespace vcs::http
