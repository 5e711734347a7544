#pragma once

// The webhook outbox and the tenants' signing secrets (migration 0004).

#include "domain/secret_box.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

// Queues one delivery in the caller's transaction (the change it reports
// commits with it or not at all).
void enqueue_webhook(soci::session& sql, int64_t tenant_id, std::optional<int64_t> campaign_id,
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
  // Only from claim_webhooks: the tenant's sealed secret, if it has one.
  std::optional<domain::secret_box::sealed> secret;
};

// Up to `limit` pending deliveries due by now, each moved `lease_seconds`
// ahead and its attempts counted (SKIP LOCKED: one node sends each).
std::vector<webhook_delivery> claim_webhooks(soci::session& sql, int32_t lease_seconds,
                                             int32_t limit);

void mark_webhook_delivered(soci::session& sql, int64_t id, int32_t status_code);

// A failed attempt: retried at `retry_at`, or dead when `retry_at` is empty.
void mark_webhook_failed(soci::session& sql, int64_t id, std::optional<int32_t> status_code,
                         const std::string& error, std::optional<domain::timestamp> retry_at);

// The tenant's deliveries, newest first, optionally of one status.
std::vector<webhook_delivery> list_webhooks(soci::session& sql, int64_t tenant_id,
                                            const std::optional<std::string>& status,
                                            int32_t limit);

// A dead (or delivered) delivery goes back to pending with fresh attempts;
// false when the tenant has no such delivery.
bool replay_webhook(soci::session& sql, int64_t tenant_id, int64_t id);

// Stores a new sealed signing secret for the tenant; false when no tenant.
bool store_webhook_secret(soci::session& sql, int64_t tenant_id,
                          const domain::secret_box::sealed& secret);

} // namespace vcs::storage
