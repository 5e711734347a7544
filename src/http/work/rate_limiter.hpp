#pragma once

// Per-tenant request rates on this node: a token bucket per tenant, refilled
// at its rate up to its burst. Per node, not per cluster: it protects the
// node's share of CPU and database time without a round trip per request
// (docs/decisions/limits-and-sharing.md#sharing-the-service-safely).
// Thread-safe.

#include "domain/plan.hpp"

#include <chrono>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace vcs::http {

class rate_limiter {
public:
  using clock = std::chrono::steady_clock;

  struct decision {
    bool allowed = true;
    domain::request_rate limit;
    // Whole requests left in the bucket after this one.
    int64_t remaining = 0;
    // Seconds until the bucket has a request again (0 while it has).
    int64_t retry_after = 0;
  };

  // Takes one request from the tenant's bucket.
  decision take(int64_t tenant_id, domain::request_rate limit, clock::time_point now);

private:
  struct bucket {
    double tokens = 0;
    clock::time_point updated;
  };

  std::mutex mutex_;
  std::unordered_map<int64_t, bucket> buckets_;
};

} // namespace vcs::http
