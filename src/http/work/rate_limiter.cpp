#include "http/work/rate_limiter.hpp"

#include <algorithm>
#include <cmath>

namespace vcs::http {

rate_limiter::decision rate_limiter::take(int64_t tenant_id, domain::request_rate limit,
                                          clock::time_point now) {
  const double rate = std::max(1, limit.per_second);
  const double burst = std::max(limit.burst, limit.per_second);
  std::lock_guard lock{mutex_};
  auto [it, fresh] = buckets_.try_emplace(tenant_id, bucket{burst, now});
  auto& b = it->second;
  if (!fresh) {
    const std::chrono::duration<double> elapsed = now - b.updated;
    b.tokens = std::min(burst, b.tokens + std::max(0.0, elapsed.count()) * rate);
    b.updated = now;
  }
  decision d;
  d.limit = limit;
  if (b.tokens >= 1.0) {
    b.tokens -= 1.0;
    d.remaining = static_cast<int64_t>(b.tokens);
    return d;
  }
  d.allowed = false;
  d.retry_after = std::max<int64_t>(1, static_cast<int64_t>(std::ceil((1.0 - b.tokens) / rate)));
  return d;
}

} // namespace vcs::http
