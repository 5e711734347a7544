#pragma once

// What a failed webhook attempt changes, in one transaction: the delivery
// retried or dead, its endpoint failing, and the endpoint disabled (with a
// webhook.endpoint_disabled event) once it has failed for a whole retry
// schedule or answered 410 Gone.

#include "domain/timestamp.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace soci {
class session;
}

namespace vcs::actors {

struct webhook_failure {
  int64_t tenant_id = 0;
  int64_t delivery_id = 0;
  std::optional<int32_t> status_code;
  std::string error;
  // Empty: the delivery is dead.
  std::optional<domain::timestamp> retry_at;
  // The endpoint is disabled when it has been failing at least this long
  // as a delivery dies: the least span of a retry schedule.
  std::chrono::milliseconds disable_after{0};
};

// True when the endpoint was disabled by this failure.
bool record_webhook_failure(soci::session& sql, const webhook_failure& failure);

} // namespace vcs::actors
