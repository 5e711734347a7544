#pragma once

// The webhook outbox, the endpoints it delivers to and the tenants' signing
// secrets (migrations 0004 and 0011).

#include "domain/secret_box.hpp"
#include "domain/timestamp.hpp"
#include "storage/page.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

// Queues one delivery in the caller's transaction (the change it reports
// commits with it or not at all); answers its id.
int64_t enqueue_webhook(soci::session& sql, int64_t tenant_id, std::optional<int64_t> campaign_id,
                        const std::string& url, const std::string& event_id,
                        const std::string& event_type, const std::string& payload);

struct webhook_delivery {
  int64_t id = 0;
  int64_t tenant_id = 0;
  std::optional<int64_t> campaign_id;
  std::string event_id;
  std::string event_type;
  std::string url;
  std::string payload;
  std::string status;
  int32_t attempts = 0;
  domain::timestamp next_attempt_at{};
  std::optional<std::string> last_error;
  std::optional<int32_t> last_status;
  domain::timestamp created_at{};
  std::optional<domain::timestamp> delivered_at;
};

// A claimed delivery with what sending it needs.
struct webhook_claim {
  webhook_delivery delivery;
  // The tenant's sealed secret, if it has one, and the one rotated out
  // while its grace period lasts.
  std::optional<domain::secret_box::sealed> secret;
  std::optional<domain::secret_box::sealed> previous_secret;
  // The endpoint is disabled: the delivery is dead without being sent.
  bool endpoint_disabled = false;
};

// Up to `limit` pending deliveries due by now, none of a tenant in
// `skipped`, each moved `lease_seconds` ahead and its attempts counted,
// unless its endpoint is disabled (SKIP LOCKED: one node sends each).
std::vector<webhook_claim> claim_webhooks(soci::session& sql, int32_t lease_seconds, int32_t limit,
                                          const std::vector<int64_t>& skipped);
// Gives claimed deliveries back unsent, due at once, their attempt uncounted.
void release_webhooks(soci::session& sql, const std::vector<int64_t>& ids);

// A 2xx: the delivery is done and its endpoint no longer failing.
void mark_webhook_delivered(soci::session& sql, int64_t id, int32_t status_code);

struct webhook_endpoint {
  int64_t id = 0;
  std::string url;
  std::string status; // enabled, disabled
  std::optional<domain::timestamp> failing_since;
  std::optional<domain::timestamp> last_success_at;
  std::optional<domain::timestamp> last_failure_at;
  std::optional<domain::timestamp> disabled_at;
  std::optional<std::string> disabled_reason;
  domain::timestamp created_at{};
};

// A failed attempt: retried at `retry_at`, or dead when it is empty. The
// delivery's endpoint, failing from now if it was not already.
// nullopt when the delivery is gone.
std::optional<webhook_endpoint> mark_webhook_failed(soci::session& sql, int64_t tenant_id,
                                                    int64_t id, std::optional<int32_t> status_code,
                                                    const std::string& error,
                                                    std::optional<domain::timestamp> retry_at);

// Dead without an attempt (its endpoint is disabled), for `reason`.
void mark_webhook_skipped(soci::session& sql, int64_t id, const std::string& reason);

// Still pending, without an attempt, until the tenant has a secret to sign
// it with (store_webhook_secret wakes it, by its last_error "waiting: "
// followed by `reason`). `claimed_secret`: the ciphertext of the
// secret the claim saw (one that cannot be opened), if any.
void mark_webhook_waiting(soci::session& sql, int64_t id, const std::string& reason,
                          const std::optional<std::string>& claimed_secret);

// Disables an enabled endpoint (its deliveries then die unsent when they
// are claimed); false when it was not enabled (another node got there
// first).
bool disable_webhook_endpoint(soci::session& sql, int64_t tenant_id, int64_t endpoint_id,
                              const std::string& reason);

// The tenant's enabled endpoints, at most `limit`.
std::vector<webhook_endpoint> enabled_webhook_endpoints(soci::session& sql, int64_t tenant_id,
                                                        int32_t limit);

// The operator's view: the tenant's deliveries, newest first, optionally of
// one status.
std::vector<webhook_delivery> list_webhooks(soci::session& sql, int64_t tenant_id,
                                            const std::optional<std::string>& status,
                                            int32_t limit);

// The tenant's view: filters of its deliveries list; empty ones match all.
struct delivery_filter {
  std::optional<std::string> status;
  std::optional<std::string> event_type;
  std::optional<int64_t> campaign_id;
  // Only these campaigns' deliveries (a key held to them); as the event
  // feed, a delivery of no campaign is then not among them.
  std::optional<std::vector<int64_t>> campaigns;
};

page_of<webhook_delivery> page_webhooks(soci::session& sql, int64_t tenant_id,
                                        const delivery_filter& filter, const page_request& page);

// `campaigns` as in delivery_filter: a delivery outside them is not found.
std::optional<webhook_delivery>
find_webhook(soci::session& sql, int64_t tenant_id, int64_t id,
             const std::optional<std::vector<int64_t>>& campaigns = std::nullopt);

// A delivery goes back to pending with fresh attempts, as it is then;
// nullopt when the tenant has no such delivery (within `campaigns`).
std::optional<webhook_delivery>
replay_webhook(soci::session& sql, int64_t tenant_id, int64_t id,
               const std::optional<std::vector<int64_t>>& campaigns = std::nullopt);

// The tenant's endpoints, newest first.
page_of<webhook_endpoint> page_webhook_endpoints(soci::session& sql, int64_t tenant_id,
                                                 const page_request& page);

// Enables the endpoint again, no longer failing; nullopt when the tenant
// has no such endpoint.
std::optional<webhook_endpoint> enable_webhook_endpoint(soci::session& sql, int64_t tenant_id,
                                                        int64_t endpoint_id);

// Stores a new sealed signing secret for the tenant; the current one, if
// any, keeps signing beside it for `grace_seconds` (none when 0). The
// deliveries waiting for a secret are due at once. Answers the
// previous secret's expiry when it has one; nullopt when no tenant.
struct secret_rotation {
  std::optional<domain::timestamp> previous_expires_at;
};
std::optional<secret_rotation> store_webhook_secret(soci::session& sql, int64_t tenant_id,
                                                    const domain::secret_box::sealed& secret,
                                                    int32_t grace_seconds);

} // namespace vcs::storage
