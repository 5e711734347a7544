#pragma once

// Whether this node should get traffic (GET /readyz): not while the database
// does not answer the health probe, nor while the public request workers or
// the database workers stay saturated longer than a bound (a load balancer
// then sends new work elsewhere), nor while draining (checked by the
// session). Thread-safe.

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace vcs::http {

class readiness {
public:
  using clock = std::chrono::steady_clock;

  struct sources {
    std::function<bool()> database_up;
    std::function<std::optional<clock::time_point>()> workers_saturated_since;
    std::function<bool()> database_workers_saturated;
  };

  readiness(sources s, std::chrono::milliseconds bound);

  // nullopt when ready, otherwise why not.
  std::optional<std::string> unready_reason();

private:
  sources sources_;
  std::chrono::milliseconds bound_;
  std::mutex mutex_;
  // Database workers are sampled at each question: saturated since the
  // first question that found them so, without a break seen in between.
  std::optional<clock::time_point> database_saturated_since_;
};

} // namespace vcs::http
