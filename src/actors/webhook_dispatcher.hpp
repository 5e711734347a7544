#pragma once

#include "actors/actors.hpp"
#include "actors/entity_config.hpp"
#include "actors/outbound_http.hpp"
#include "actors/webhook_settings.hpp"
#include "domain/secret_box.hpp"

#include <chrono>
#include <memory>

namespace vcs::actors {

struct webhook_dispatcher_state {
  static inline const char* name = "webhook-dispatcher";

  webhook_dispatcher_state() = default;

  entity_config_ptr config;
  http_poster post;
  std::shared_ptr<const domain::secret_box> secrets;
  webhook_settings settings;
  int32_t in_flight = 0;
  bool claiming = false;
};

// The associated data that binds a tenant's sealed webhook secret to it.
std::string webhook_secret_binding(int64_t tenant_id);

// Delivers the outbox at least once: claims due deliveries (any node may;
// SKIP LOCKED and a lease keep two from sending the same one at once), signs
// each payload with the tenant's secret (X-VCS-Signature: t=<unix>,v1=<hex
// HMAC-SHA256 of "<unix>.<body>">), POSTs it, and records the outcome: a 2xx
// is delivered; anything else is retried with exponential backoff until
// `max_attempts`, then dead (operators list and replay dead deliveries).
webhook_dispatcher_actor::behavior_type
webhook_dispatcher(webhook_dispatcher_actor::stateful_pointer<webhook_dispatcher_state> self,
                   entity_config_ptr config, http_poster post,
                   std::shared_ptr<const domain::secret_box> secrets, webhook_settings settings);

} // namespace vcs::actors
