#include "domain/failure_breaker.hpp"

namespace vcs::domain {

failure_breaker breaker_of(const campaign& c) {
  failure_breaker b;
  if (c.failure_breaker_calls)
    b.calls = *c.failure_breaker_calls;
  if (c.failure_breaker_percent)
    b.percent = *c.failure_breaker_percent;
  return b;
}

bool is_provider_failure(std::string_view call_status, const std::optional<std::string>& outcome) {
  return call_status == "ABANDONED" || outcome == "failed";
}

bool breaker_trips(const failure_breaker& b, int64_t ended, int64_t failures) {
  if (b.calls <= 0 || ended < b.calls)
    return false;
  return failures * 100 >= static_cast<int64_t>(b.percent) * b.calls;
}

} // namespace vcs::domain
