#pragma once

#include <chrono>
#include <cstdint>

namespace soci {
class session;
}

namespace vcs::storage {

// How long rows that only grow are kept; 0 keeps them.
struct retention_policy {
  // Ended calls whose minutes are recorded.
  std::chrono::seconds calls = std::chrono::days{90};
  // Webhook deliveries delivered or dead (a pending one is always kept).
  std::chrono::seconds deliveries = std::chrono::days{30};
  // The events feed.
  std::chrono::seconds events = std::chrono::days{30};
  // Finished lead imports with their rejections.
  std::chrono::seconds imports = std::chrono::days{30};
};

// Rows deleted by one purge_expired.
struct purged_rows {
  int64_t calls = 0;
  int64_t deliveries = 0;
  int64_t events = 0;
  int64_t import_rejections = 0;
  int64_t imports = 0;
  int64_t idempotency_keys = 0;

  int64_t total() const {
    return calls + deliveries + events + import_rejections + imports + idempotency_keys;
  }
  // Whether some kind had more past its retention than `batch`.
  bool more(int64_t batch) const {
    return calls == batch || deliveries == batch || events == batch || import_rejections == batch ||
           imports == batch || idempotency_keys == batch;
  }
};

// Deletes at most `batch` rows of each kind past its retention, oldest
// first, in one short transaction; idempotency keys go after 24 hours
// (docs/decisions/storage.md#retention). Nothing while another node purges.
purged_rows purge_expired(soci::session& sql, const retention_policy& policy, int32_t batch);

} // namespace vcs::storage
