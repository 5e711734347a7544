#include "storage/webhook_repository.hpp"

#include "domain/hex.hpp"
#include "storage/page_rows.hpp"
#include "storage/prepared.hpp"

namespace vcs::storage {

namespace {

constexpr prepared_statement enqueue_stmt{
    "vcs_enqueue_webhook",
    "INSERT INTO webhook_deliveries (tenant_id, campaign_id, url, event_id, event_type, payload) "
    "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id"};

#define VCS_WEBHOOK_COLUMNS                                                                        \
  "w.id, w.tenant_id, w.campaign_id, w.event_id, w.event_type, w.url, w.payload, w.status, "       \
  "w.attempts, w.next_attempt_at, w.last_error, w.last_status, w.created_at, w.delivered_at"
#define VCS_ENDPOINT_COLUMNS                                                                       \
  "e.id, e.url, e.status, e.failing_since, e.last_success_at, e.last_failure_at, e.disabled_at, "  \
  "e.disabled_reason, e.created_at"

// A delivery to a disabled endpoint, or of a tenant without a secret, is
// claimed without counting an attempt: the dispatcher dead-letters the
// first unsent and has the second wait for a secret. The secret rotated out comes only while its
// grace period lasts.
constexpr prepared_statement claim_stmt{
    "vcs_claim_webhooks",
    "WITH due AS (SELECT w.id, coalesce(e.status = 'disabled', false) AS off "
    "FROM webhook_deliveries w LEFT JOIN webhook_endpoints e "
    "ON e.tenant_id = w.tenant_id AND e.url = w.url "
    "WHERE w.status = 'pending' AND w.next_attempt_at <= now() "
    "AND w.tenant_id IN (SELECT id FROM switched_on_tenants) "
    "AND w.tenant_id <> ALL($3::bigint[]) "
    "ORDER BY w.next_attempt_at LIMIT $2::int FOR UPDATE OF w SKIP LOCKED) "
    "UPDATE webhook_deliveries w SET attempts = w.attempts + "
    "CASE WHEN due.off OR t.webhook_secret_ciphertext IS NULL THEN 0 ELSE 1 END, "
    "next_attempt_at = now() + make_interval(secs => $1::int) "
    "FROM due, tenants t WHERE w.id = due.id AND t.id = w.tenant_id RETURNING " VCS_WEBHOOK_COLUMNS
    ", encode(t.webhook_secret_ciphertext, 'hex'), encode(t.webhook_secret_nonce, 'hex'), "
    "CASE WHEN t.webhook_previous_secret_expires_at > now() "
    "THEN encode(t.webhook_previous_secret_ciphertext, 'hex') END, "
    "CASE WHEN t.webhook_previous_secret_expires_at > now() "
    "THEN encode(t.webhook_previous_secret_nonce, 'hex') END, due.off"};

// Claims given back unsent: their attempt is not counted, and they are due
// again at once.
constexpr prepared_statement release_stmt{
    "vcs_release_webhooks",
    "UPDATE webhook_deliveries SET attempts = attempts - 1, next_attempt_at = now() "
    "WHERE id = ANY($1::bigint[]) AND status = 'pending'"};

// The endpoint's success is written when it was failing, or at most once a
// minute: one URL receiving many deliveries does not rewrite its row each
// time (last_success_at is exact to a minute).
constexpr prepared_statement delivered_stmt{
    "vcs_webhook_delivered",
    "WITH d AS (UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), "
    "last_status = $2::int, last_error = NULL WHERE id = $1 RETURNING tenant_id, url) "
    "INSERT INTO webhook_endpoints AS e (tenant_id, url, last_success_at) "
    "SELECT tenant_id, url, now() FROM d ON CONFLICT (tenant_id, url) DO UPDATE "
    "SET last_success_at = now(), failing_since = NULL "
    "WHERE e.failing_since IS NOT NULL OR e.last_success_at IS NULL "
    "OR e.last_success_at < now() - interval '1 minute'"};

constexpr prepared_statement failed_stmt{
    "vcs_webhook_failed",
    "WITH d AS (UPDATE webhook_deliveries SET last_status = $3::int, last_error = $4, "
    "status = CASE WHEN $5::timestamptz IS NULL THEN 'dead' ELSE 'pending' END, "
    "next_attempt_at = coalesce($5::timestamptz, next_attempt_at) "
    "WHERE tenant_id = $1 AND id = $2 RETURNING tenant_id, url) "
    "INSERT INTO webhook_endpoints AS e (tenant_id, url, failing_since, last_failure_at) "
    "SELECT tenant_id, url, now(), now() FROM d ON CONFLICT (tenant_id, url) DO UPDATE "
    "SET failing_since = coalesce(e.failing_since, now()), last_failure_at = now() "
    "RETURNING " VCS_ENDPOINT_COLUMNS};

constexpr prepared_statement skipped_stmt{
    "vcs_webhook_skipped", "UPDATE webhook_deliveries SET status = 'dead', last_error = $2 "
                           "WHERE id = $1"};

// Looked at again once an hour, or at once when the tenant makes a secret
// (wake_stmt); the claim's attempt is given back. A secret made since the
// claim ($3: the one it saw) makes it due at once instead.
constexpr prepared_statement waiting_stmt{
    "vcs_webhook_waiting",
    "UPDATE webhook_deliveries w SET last_error = 'waiting: ' || $2, "
    "attempts = CASE WHEN $3::text IS NULL THEN w.attempts ELSE w.attempts - 1 END, "
    "next_attempt_at = CASE WHEN t.webhook_secret_ciphertext IS NOT DISTINCT FROM decode($3, "
    "'hex') "
    "THEN now() + interval '1 hour' ELSE now() END "
    "FROM tenants t WHERE w.id = $1 AND w.status = 'pending' AND t.id = w.tenant_id"};

constexpr prepared_statement wake_stmt{
    "vcs_wake_webhooks",
    "UPDATE webhook_deliveries SET next_attempt_at = now() "
    "WHERE tenant_id = $1 AND status = 'pending' AND last_error LIKE 'waiting:%'"};

constexpr prepared_statement disable_stmt{
    "vcs_disable_webhook_endpoint",
    "UPDATE webhook_endpoints SET status = 'disabled', disabled_at = now(), disabled_reason = $3 "
    "WHERE tenant_id = $1 AND id = $2 AND status = 'enabled' RETURNING id"};

constexpr prepared_statement enabled_stmt{
    "vcs_enabled_webhook_endpoints",
    "SELECT " VCS_ENDPOINT_COLUMNS " FROM webhook_endpoints e "
    "WHERE e.tenant_id = $1 AND e.status = 'enabled' ORDER BY e.id LIMIT $2::int"};

constexpr prepared_statement list_stmt{
    "vcs_list_webhooks", "SELECT " VCS_WEBHOOK_COLUMNS " FROM webhook_deliveries w "
                         "WHERE w.tenant_id = $1 AND ($2::text IS NULL OR w.status = $2) "
                         "ORDER BY w.id DESC LIMIT $3::int"};

#define VCS_DELIVERY_FILTERS                                                                       \
  " FROM webhook_deliveries w WHERE w.tenant_id = $1 AND ($2::text IS NULL OR w.status = $2) "     \
  "AND ($3::text IS NULL OR w.event_type = $3) AND ($4::bigint IS NULL OR w.campaign_id = $4) "    \
  "AND ($5::bigint[] IS NULL OR w.campaign_id = ANY($5)) "
constexpr prepared_statement count_deliveries_stmt{"vcs_count_webhooks",
                                                   VCS_COUNT_AT_MOST(VCS_DELIVERY_FILTERS)};
constexpr prepared_statement page_deliveries_stmt{"vcs_page_webhooks",
                                                  "SELECT " VCS_WEBHOOK_COLUMNS VCS_DELIVERY_FILTERS
                                                  "ORDER BY w.id DESC LIMIT $6 OFFSET $7"};

constexpr prepared_statement find_stmt{"vcs_find_webhook",
                                       "SELECT " VCS_WEBHOOK_COLUMNS " FROM webhook_deliveries w "
                                       "WHERE w.tenant_id = $1 AND w.id = $2 "
                                       "AND ($3::bigint[] IS NULL OR w.campaign_id = ANY($3))"};

constexpr prepared_statement replay_stmt{
    "vcs_replay_webhook",
    "UPDATE webhook_deliveries w SET status = 'pending', attempts = 0, next_attempt_at = now(), "
    "delivered_at = NULL WHERE w.tenant_id = $1 AND w.id = $2 "
    "AND ($3::bigint[] IS NULL OR w.campaign_id = ANY($3)) RETURNING " VCS_WEBHOOK_COLUMNS};

constexpr prepared_statement count_endpoints_stmt{
    "vcs_count_webhook_endpoints", "SELECT count(*) FROM webhook_endpoints WHERE tenant_id = $1"};
constexpr prepared_statement page_endpoints_stmt{
    "vcs_page_webhook_endpoints", "SELECT " VCS_ENDPOINT_COLUMNS " FROM webhook_endpoints e "
                                  "WHERE e.tenant_id = $1 ORDER BY e.id DESC LIMIT $2 OFFSET $3"};

constexpr prepared_statement enable_stmt{
    "vcs_enable_webhook_endpoint",
    "UPDATE webhook_endpoints e SET status = 'enabled', disabled_at = NULL, "
    "disabled_reason = NULL, failing_since = NULL WHERE e.tenant_id = $1 AND e.id = $2 "
    "RETURNING " VCS_ENDPOINT_COLUMNS};

// In an UPDATE every right-hand side reads the row as it was: the current
// secret becomes the previous one.
constexpr prepared_statement secret_stmt{
    "vcs_store_webhook_secret",
    "UPDATE tenants SET "
    "webhook_previous_secret_ciphertext = CASE WHEN $4::int > 0 THEN webhook_secret_ciphertext "
    "END, "
    "webhook_previous_secret_nonce = CASE WHEN $4::int > 0 THEN webhook_secret_nonce END, "
    "webhook_previous_secret_expires_at = CASE WHEN $4::int > 0 AND "
    "webhook_secret_ciphertext IS NOT NULL THEN now() + make_interval(secs => $4::int) END, "
    "webhook_secret_ciphertext = decode($2, 'hex'), webhook_secret_nonce = decode($3, 'hex') "
    "WHERE id = $1 RETURNING webhook_previous_secret_expires_at"};

#undef VCS_DELIVERY_FILTERS
#undef VCS_ENDPOINT_COLUMNS
#undef VCS_WEBHOOK_COLUMNS

constexpr int delivery_columns = 14;

webhook_delivery delivery_of(const pg_rows& rows, int i) {
  webhook_delivery d;
  d.id = rows.int64(i, 0);
  d.tenant_id = rows.int64(i, 1);
  d.campaign_id = rows.opt_int64(i, 2);
  d.event_id = std::string{rows.text(i, 3)};
  d.event_type = std::string{rows.text(i, 4)};
  d.url = std::string{rows.text(i, 5)};
  d.payload = std::string{rows.text(i, 6)};
  d.status = std::string{rows.text(i, 7)};
  d.attempts = rows.int32(i, 8);
  d.next_attempt_at = rows.timestamp(i, 9);
  d.last_error = rows.opt_text(i, 10);
  d.last_status = rows.opt_int32(i, 11);
  d.created_at = rows.timestamp(i, 12);
  d.delivered_at = rows.opt_timestamp(i, 13);
  return d;
}

webhook_endpoint endpoint_of(const pg_rows& rows, int i) {
  webhook_endpoint e;
  e.id = rows.int64(i, 0);
  e.url = std::string{rows.text(i, 1)};
  e.status = std::string{rows.text(i, 2)};
  e.failing_since = rows.opt_timestamp(i, 3);
  e.last_success_at = rows.opt_timestamp(i, 4);
  e.last_failure_at = rows.opt_timestamp(i, 5);
  e.disabled_at = rows.opt_timestamp(i, 6);
  e.disabled_reason = rows.opt_text(i, 7);
  e.created_at = rows.timestamp(i, 8);
  return e;
}

} // namespace

int64_t enqueue_webhook(soci::session& sql, int64_t tenant_id, std::optional<int64_t> campaign_id,
                        const std::string& url, const std::string& event_id,
                        const std::string& event_type, const std::string& payload) {
  return execute(sql, enqueue_stmt, {tenant_id, campaign_id, url, event_id, event_type, payload})
      .int64(0, 0);
}

std::vector<webhook_claim> claim_webhooks(soci::session& sql, int32_t lease_seconds, int32_t limit,
                                          const std::vector<int64_t>& skipped) {
  auto rows = execute(sql, claim_stmt, {lease_seconds, limit, skipped});
  std::vector<webhook_claim> out;
  for (int i = 0; i < rows.size(); ++i) {
    webhook_claim c;
    c.delivery = delivery_of(rows, i);
    c.secret = rows.opt_sealed(i, delivery_columns, delivery_columns + 1);
    c.previous_secret = rows.opt_sealed(i, delivery_columns + 2, delivery_columns + 3);
    c.endpoint_disabled = rows.boolean(i, delivery_columns + 4);
    out.push_back(std::move(c));
  }
  return out;
}

void release_webhooks(soci::session& sql, const std::vector<int64_t>& ids) {
  execute(sql, release_stmt, {ids});
}

void mark_webhook_delivered(soci::session& sql, int64_t id, int32_t status_code) {
  execute(sql, delivered_stmt, {id, status_code});
}

std::optional<webhook_endpoint> mark_webhook_failed(soci::session& sql, int64_t tenant_id,
                                                    int64_t id, std::optional<int32_t> status_code,
                                                    const std::string& error,
                                                    std::optional<domain::timestamp> retry_at) {
  auto rows = execute(sql, failed_stmt, {tenant_id, id, status_code, error, retry_at});
  if (rows.size() == 0)
    return std::nullopt;
  return endpoint_of(rows, 0);
}

void mark_webhook_skipped(soci::session& sql, int64_t id, const std::string& reason) {
  execute(sql, skipped_stmt, {id, reason});
}

void mark_webhook_waiting(soci::session& sql, int64_t id, const std::string& reason,
                          const std::optional<std::string>& claimed_secret) {
  std::optional<std::string> hex;
  if (claimed_secret)
    hex = domain::to_hex(*claimed_secret);
  execute(sql, waiting_stmt, {id, reason, hex});
}

bool disable_webhook_endpoint(soci::session& sql, int64_t tenant_id, int64_t endpoint_id,
                              const std::string& reason) {
  return execute(sql, disable_stmt, {tenant_id, endpoint_id, reason}).size() > 0;
}

std::vector<webhook_endpoint> enabled_webhook_endpoints(soci::session& sql, int64_t tenant_id,
                                                        int32_t limit) {
  auto rows = execute(sql, enabled_stmt, {tenant_id, limit});
  std::vector<webhook_endpoint> out;
  for (int i = 0; i < rows.size(); ++i)
    out.push_back(endpoint_of(rows, i));
  return out;
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

page_of<webhook_delivery> page_webhooks(soci::session& sql, int64_t tenant_id,
                                        const delivery_filter& filter, const page_request& page) {
  auto total =
      execute(sql, count_deliveries_stmt,
              {tenant_id, filter.status, filter.event_type, filter.campaign_id, filter.campaigns});
  auto rows = execute(sql, page_deliveries_stmt,
                      {tenant_id, filter.status, filter.event_type, filter.campaign_id,
                       filter.campaigns, page.page_size, offset_of(page)});
  return capped_page_from(total, rows, delivery_of);
}

std::optional<webhook_delivery> find_webhook(soci::session& sql, int64_t tenant_id, int64_t id,
                                             const std::optional<std::vector<int64_t>>& campaigns) {
  auto rows = execute(sql, find_stmt, {tenant_id, id, campaigns});
  if (rows.size() == 0)
    return std::nullopt;
  return delivery_of(rows, 0);
}

std::optional<webhook_delivery>
replay_webhook(soci::session& sql, int64_t tenant_id, int64_t id,
               const std::optional<std::vector<int64_t>>& campaigns) {
  auto rows = execute(sql, replay_stmt, {tenant_id, id, campaigns});
  if (rows.size() == 0)
    return std::nullopt;
  return delivery_of(rows, 0);
}

page_of<webhook_endpoint> page_webhook_endpoints(soci::session& sql, int64_t tenant_id,
                                                 const page_request& page) {
  auto total = execute(sql, count_endpoints_stmt, {tenant_id});
  auto rows = execute(sql, page_endpoints_stmt, {tenant_id, page.page_size, offset_of(page)});
  return page_from(total, rows, endpoint_of);
}

std::optional<webhook_endpoint> enable_webhook_endpoint(soci::session& sql, int64_t tenant_id,
                                                        int64_t endpoint_id) {
  auto rows = execute(sql, enable_stmt, {tenant_id, endpoint_id});
  if (rows.size() == 0)
    return std::nullopt;
  return endpoint_of(rows, 0);
}

std::optional<secret_rotation> store_webhook_secret(soci::session& sql, int64_t tenant_id,
                                                    const domain::secret_box::sealed& secret,
                                                    int32_t grace_seconds) {
  auto rows = execute(
      sql, secret_stmt,
      {tenant_id, domain::to_hex(secret.ciphertext), domain::to_hex(secret.nonce), grace_seconds});
  if (rows.size() == 0)
    return std::nullopt;
  execute(sql, wake_stmt, {tenant_id});
  return secret_rotation{rows.opt_timestamp(0, 0)};
}

} // namespace vcs::storage
