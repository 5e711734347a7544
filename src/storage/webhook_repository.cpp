#include "storage/webhook_repository.hpp"

#include "domain/hex.hpp"
#include "storage/prepared.hpp"

#include <stdexcept>

namespace vcs::storage {

namespace {

constexpr prepared_statement enqueue_stmt{
    "vcs_enqueue_webhook",
    "INSERT INTO webhook_deliveries (tenant_id, campaign_id, url, event_id, event_type, payload) "
    "VALUES ($1, $2, $3, $4, $5, $6)"};

#define VCS_WEBHOOK_COLUMNS                                                                        \
  "w.id, w.tenant_id, w.campaign_id, w.event_id, w.event_type, w.url, w.payload, w.status, "       \
  "w.attempts, w.next_attempt_at, w.last_error, w.last_status, w.created_at, w.delivered_at"

constexpr prepared_statement claim_stmt{
    "vcs_claim_webhooks",
    "UPDATE webhook_deliveries w SET attempts = w.attempts + 1, "
    "next_attempt_at = now() + make_interval(secs => $1::int) "
    "FROM (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now() "
    "AND tenant_id IN (SELECT id FROM switched_on_tenants) "
    "ORDER BY next_attempt_at LIMIT $2::int FOR UPDATE SKIP LOCKED) due, tenants t "
    "WHERE w.id = due.id AND t.id = w.tenant_id RETURNING " VCS_WEBHOOK_COLUMNS
    ", encode(t.webhook_secret_ciphertext, 'hex'), encode(t.webhook_secret_nonce, 'hex')"};

constexpr prepared_statement delivered_stmt{
    "vcs_webhook_delivered",
    "UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), "
    "last_status = $2::int, last_error = NULL WHERE id = $1"};

constexpr prepared_statement failed_stmt{
    "vcs_webhook_failed",
    "UPDATE webhook_deliveries SET last_status = $2::int, last_error = $3, "
    "status = CASE WHEN $4::timestamptz IS NULL THEN 'dead' ELSE 'pending' END, "
    "next_attempt_at = coalesce($4::timestamptz, next_attempt_at) WHERE id = $1"};

constexpr prepared_statement list_stmt{
    "vcs_list_webhooks", "SELECT " VCS_WEBHOOK_COLUMNS " FROM webhook_deliveries w "
                         "WHERE w.tenant_id = $1 AND ($2::text IS NULL OR w.status = $2) "
                         "ORDER BY w.id DESC LIMIT $3::int"};

constexpr prepared_statement replay_stmt{
    "vcs_replay_webhook",
    "UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), "
    "delivered_at = NULL WHERE tenant_id = $1 AND id = $2 RETURNING id"};

constexpr prepared_statement secret_stmt{
    "vcs_store_webhook_secret",
    "UPDATE tenants SET webhook_secret_ciphertext = decode($2, 'hex'), "
    "webhook_secret_nonce = decode($3, 'hex') WHERE id = $1 RETURNING id"};

#undef VCS_WEBHOOK_COLUMNS

webhook_delivery delivery_of(const pg_rows& rows, int i) {
  webhook_delivery d;
  d.id = rows.int64(i, 0);
  d.tenant_id = rows.int64(i, 1);
  if (!rows.is_null(i, 2))
    d.campaign_id = rows.int64(i, 2);
  d.event_id = std::string{rows.text(i, 3)};
  d.event_type = std::string{rows.text(i, 4)};
  d.url = std::string{rows.text(i, 5)};
  d.payload = std::string{rows.text(i, 6)};
  d.status = std::string{rows.text(i, 7)};
  d.attempts = static_cast<int32_t>(rows.int64(i, 8));
  d.next_attempt_at = rows.timestamp(i, 9);
  d.last_error = rows.opt_text(i, 10);
  if (!rows.is_null(i, 11))
    d.last_status = static_cast<int32_t>(rows.int64(i, 11));
  d.created_at = rows.timestamp(i, 12);
  d.delivered_at = rows.opt_timestamp(i, 13);
  return d;
}

} // namespace

void enqueue_webhook(soci::session& sql, int64_t tenant_id, std::optional<int64_t> campaign_id,
                     const std::string& url, const std::string& event_id,
                     const std::string& event_type, const std::string& payload) {
  execute(sql, enqueue_stmt, {tenant_id, campaign_id, url, event_id, event_type, payload});
}

std::vector<webhook_delivery> claim_webhooks(soci::session& sql, int32_t lease_seconds,
                                             int32_t limit) {
  auto rows = execute(sql, claim_stmt, {lease_seconds, limit});
  std::vector<webhook_delivery> out;
  for (int i = 0; i < rows.size(); ++i) {
    auto d = delivery_of(rows, i);
    d.secret = rows.opt_sealed(i, 14, 15);
    out.push_back(std::move(d));
  }
  return out;
}

void mark_webhook_delivered(soci::session& sql, int64_t id, int32_t status_code) {
  execute(sql, delivered_stmt, {id, status_code});
}

void mark_webhook_failed(soci::session& sql, int64_t id, std::optional<int32_t> status_code,
                         const std::string& error, std::optional<domain::timestamp> retry_at) {
  execute(sql, failed_stmt, {id, status_code, error, retry_at});
}

std::vector<webhook_delivery> list_webhooks(soci::session& sql, int64_t tenant_id,
                                            const std::optional<std::string>& status,
                                            int32_t limit) {
  auto rows = execute(sql, list_stmt, {tenant_id, status, limit});
  std::vector<webhook_delivery> out;
  for (int i = 0; i < rows.size(); ++i)
    out.push_back(delivery_of(rows, i));
  return out;
}

bool replay_webhook(soci::session& sql, int64_t tenant_id, int64_t id) {
  return execute(sql, replay_stmt, {tenant_id, id}).size() > 0;
}

bool store_webhook_secret(soci::session& sql, int64_t tenant_id,
                          const domain::secret_box::sealed& secret) {
  return execute(sql, secret_stmt,
                 {tenant_id, domain::to_hex(secret.ciphertext), domain::to_hex(secret.nonce)})
             .size() > 0;
}

} // namespace vcs::storage
