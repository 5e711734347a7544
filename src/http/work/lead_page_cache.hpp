#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace vcs::http {

// This node's rendered lead pages. A page is served again only while its
// campaign's leads version is the one it was rendered at: every write
// transaction of the campaign bumps that version in the database
// (storage::begin_locking_campaign), and each list request reads it with
// the caller's key, so a write committed by any node is never hidden.
// Bounded in bytes; the least recently used page goes first. Shared by
// the request workers.
class lead_page_cache {
public:
  struct key {
    int64_t campaign_id = 0;
    int64_t limit = 0;
    int64_t offset = 0;
    bool operator==(const key&) const = default;
  };
  using body = std::shared_ptr<const std::string>;

  // max_bytes 0 keeps nothing.
  explicit lead_page_cache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

  // A page rendered at `version` or later, or null (an older page is
  // dropped: versions only grow).
  body find(const key& k, int64_t version);
  // Keeps a page rendered at `version` or later; a page larger than the
  // whole budget is not kept.
  void store(const key& k, int64_t version, body page);

  // Memory the kept pages take, bookkeeping included; at most max_bytes.
  std::size_t bytes() const;
  uint64_t hits() const;
  uint64_t misses() const;
  // What a page costs the budget: its bytes and its bookkeeping.
  static std::size_t footprint(const std::string& page) noexcept;
  // Prometheus text: hits, misses and bytes kept.
  std::string render_metrics() const;

private:
  struct entry {
    key k;
    int64_t version;
    body page;
  };
  struct key_hash {
    std::size_t operator()(const key& k) const noexcept;
  };
  void erase(std::list<entry>::iterator it);

  const std::size_t max_bytes_;
  mutable std::mutex mutex_;
  std::list<entry> recent_; // most recently used first
  std::unordered_map<key, std::list<entry>::iterator, key_hash> index_;
  std::size_t bytes_ = 0;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

} // namespace vcs::http
