#pragma once

#include "storage/backlog_repository.hpp"

#include <optional>
#include <string>

namespace vcs::http {

// The cluster's queues (storage::backlog) as gauges; without a reading (the
// database did not answer), only vcs_backlog_read_success 0.
std::string render_backlog_metrics(const std::optional<storage::backlog>& b);

} // namespace vcs::http
