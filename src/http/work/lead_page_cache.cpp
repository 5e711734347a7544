#include "http/work/lead_page_cache.hpp"

#include <fmt/format.h>

#include <functional>

namespace vcs::http {

std::size_t lead_page_cache::key_hash::operator()(const key& k) const noexcept {
  std::size_t h = std::hash<int64_t>{}(k.campaign_id);
  h = h * 31 + std::hash<int64_t>{}(k.limit);
  return h * 31 + std::hash<int64_t>{}(k.offset);
}

lead_page_cache::body lead_page_cache::find(const key& k, int64_t version) {
  std::lock_guard lock{mutex_};
  auto found = index_.find(k);
  // A page kept at a later version is newer than this request needs, and
  // still fresh for it.
  if (found == index_.end() || found->second->version < version) {
    if (found != index_.end())
      erase(found->second);
    ++misses_;
    return nullptr;
  }
  recent_.splice(recent_.begin(), recent_, found->second);
  ++hits_;
  return found->second->page;
}

void lead_page_cache::store(const key& k, int64_t version, body page) {
  const auto size = footprint(*page);
  if (size > max_bytes_)
    return;
  std::lock_guard lock{mutex_};
  if (auto found = index_.find(k); found != index_.end()) {
    // Another worker may have stored a newer rendering meanwhile.
    if (found->second->version > version)
      return;
    erase(found->second);
  }
  while (bytes_ + size > max_bytes_)
    erase(std::prev(recent_.end()));
  recent_.push_front({k, version, std::move(page)});
  index_.emplace(k, recent_.begin());
  bytes_ += size;
}

std::size_t lead_page_cache::footprint(const std::string& page) noexcept {
  // The list and map nodes, the key and the version: without them, many
  // small pages (the empty ones past a campaign's end) would hold several
  // times the budget.
  constexpr std::size_t bookkeeping = 160;
  return page.size() + bookkeeping;
}

void lead_page_cache::erase(std::list<entry>::iterator it) {
  bytes_ -= footprint(*it->page);
  index_.erase(it->k);
  recent_.erase(it);
}

std::size_t lead_page_cache::bytes() const {
  std::lock_guard lock{mutex_};
  return bytes_;
}

uint64_t lead_page_cache::hits() const {
  std::lock_guard lock{mutex_};
  return hits_;
}

uint64_t lead_page_cache::misses() const {
  std::lock_guard lock{mutex_};
  return misses_;
}

std::string lead_page_cache::render_metrics() const {
  std::lock_guard lock{mutex_};
  return fmt::format(
      "# HELP vcs_lead_page_cache_hits_total Lead lists answered from this node's rendered "
      "pages.\n"
      "# TYPE vcs_lead_page_cache_hits_total counter\n"
      "vcs_lead_page_cache_hits_total {}\n"
      "# HELP vcs_lead_page_cache_misses_total Lead lists read from the database.\n"
      "# TYPE vcs_lead_page_cache_misses_total counter\n"
      "vcs_lead_page_cache_misses_total {}\n"
      "# HELP vcs_lead_page_cache_bytes Memory the kept lead pages take, bookkeeping included.\n"
      "# TYPE vcs_lead_page_cache_bytes gauge\n"
      "vcs_lead_page_cache_bytes {}\n",
      hits_, misses_, bytes_);
}

} // namespace vcs::http
