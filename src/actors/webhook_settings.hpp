#pragma once

#include "domain/webhook_retry.hpp"

#include <chrono>
#include <cstdint>

namespace vcs::actors {

// The webhook dispatcher's settings; the defaults are the service's
// (app::config nests this struct).
struct webhook_settings {
  std::chrono::milliseconds interval{250};
  // Deliveries in flight per node at most, and of one tenant: a tenant
  // whose receiver is slow holds at most its own share of the senders.
  int32_t batch = 64;
  int32_t per_tenant = 16;
  // Waits between attempts; a delivery is dead once they are spent.
  domain::retry_schedule retry =
      *domain::parse_retry_schedule(domain::default_webhook_retry_schedule);
  std::chrono::milliseconds timeout{10'000};
};

} // namespace vcs::actors
