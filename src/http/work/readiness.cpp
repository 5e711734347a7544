#include "http/work/readiness.hpp"

namespace vcs::http {

readiness::readiness(sources s, std::chrono::milliseconds bound)
    : sources_(std::move(s)), bound_(bound) {}

std::optional<std::string> readiness::unready_reason() {
  const auto now = clock::now();
  if (!sources_.database_up())
    return "database unavailable";
  if (auto since = sources_.workers_saturated_since(); since && now - *since >= bound_)
    return "request workers saturated";
  std::lock_guard lock{mutex_};
  if (!sources_.database_workers_saturated()) {
    database_saturated_since_.reset();
    return std::nullopt;
  }
  if (!database_saturated_since_)
    database_saturated_since_ = now;
  if (now - *database_saturated_since_ >= bound_)
    return "database workers saturated";
  return std::nullopt;
}

} // namespace vcs::http
