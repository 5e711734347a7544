#pragma once

#include "actors/actors.hpp"
#include "actors/entity_config.hpp"
#include "actors/outbound_http.hpp"
#include "actors/webhook_settings.hpp"
#include "domain/secret_box.hpp"

#include <chrono>
#include <memory>
#include <random>
#include <unordered_map>

namespace vcs::actors {

struct webhook_dispatcher_state {
  static inline const char* name = "webhook-dispatcher";

  webhook_dispatcher_state() = default;

  entity_config_ptr config;
  http_poster post;
  std::shared_ptr<const domain::secret_box> secrets;
  webhook_settings settings;
  int32_t in_flight = 0;
  // Deliveries in flight by tenant (webhook_settings::per_tenant).
  std::unordered_map<int64_t, int32_t> tenant_in_flight;
  bool claiming = false;
  // Jitter of retry waits.
  std::mt19937_64 random{std::random_device{}()};
};

// Delivers the outbox at least once: claims due deliveries (any node may;
// SKIP LOCKED and a lease keep two from sending the same one at once), signs
// each payload with the tenant's secret, and the one rotated out during its
// grace period (Standard Webhooks headers, and the first X-VCS-Signature
// for receivers that still check it), POSTs it, and records the outcome: a
// 2xx is delivered; anything else is retried along the retry schedule with
// jitter, then dead, and an endpoint failing for a whole schedule (or
// answering 410) is disabled (webhook_outcome.hpp).
webhook_dispatcher_actor::behavior_type
webhook_dispatcher(webhook_dispatcher_actor::stateful_pointer<webhook_dispatcher_state> self,
                   entity_config_ptr config, http_poster post,
                   std::shared_ptr<const domain::secret_box> secrets, webhook_settings settings);

} // namespace vcs::actors
