#include "storage/campaign_repository.hpp"

#include "domain/global_id.hpp"
#include "domain/plan.hpp"

#include "storage/contact_cap_row.hpp"
#include "storage/page_rows.hpp"
#include "storage/prepared.hpp"

#include <stdexcept>

namespace vcs::storage {

namespace {

// The columns of a campaign row, read by campaign_col.
#define CAMPAIGN_COLUMNS                                                                           \
  "id, tenant_id, name, type, status, assistant_id, voice_provider_id, dialer_type, "              \
  "provider_a_calling_entity, phone_number_id, phone_number_pool_id, start_date, end_date, "       \
  "timezone, days_of_week, daily_start_time, daily_end_time, max_call_attempts, "                  \
  "max_daily_attempts, min_gap_between_attempts, consider_voicemail_as_answered, "                 \
  "webhook_url, lead_count, created_at, updated_at, lead_local_time, next_dial_at, pause_reason, " \
  "failure_breaker_calls, failure_breaker_percent, failure_breaker_after, calling_purpose, "       \
  "coalesce(calling_purpose, (SELECT t.calling_purpose FROM tenants t "                            \
  "WHERE t.id = campaigns.tenant_id)), "                                                           \
  "(SELECT t.contact_cap_calls FROM tenants t WHERE t.id = campaigns.tenant_id), "                 \
  "(SELECT t.contact_cap_hours FROM tenants t WHERE t.id = campaigns.tenant_id)"

namespace campaign_col {
enum : int {
  id,
  tenant_id,
  name,
  type,
  status,
  assistant_id,
  voice_provider_id,
  dialer_type,
  provider_a_calling_entity,
  phone_number_id,
  phone_number_pool_id,
  start_date,
  end_date,
  timezone,
  days_of_week,
  daily_start_time,
  daily_end_time,
  max_call_attempts,
  max_daily_attempts,
  min_gap_between_attempts,
  consider_voicemail_as_answered,
  webhook_url,
  lead_count,
  created_at,
  updated_at,
  lead_local_time,
  next_dial_at,
  pause_reason,
  failure_breaker_calls,
  failure_breaker_percent,
  failure_breaker_after,
  calling_purpose,
  effective_calling_purpose,
  tenant_cap_calls,
  tenant_cap_hours
};
} // namespace campaign_col

constexpr prepared_statement quota_stmt{
    "vcs_campaign_quota", "SELECT plan, campaign_limit FROM tenants WHERE id = $1 FOR UPDATE"};
constexpr prepared_statement count_stmt{
    "vcs_campaign_count",
    "SELECT count(*) FROM campaigns WHERE tenant_id = $1 AND status <> 'ENDED'"};

constexpr prepared_statement insert_stmt{
    "vcs_insert_campaign",
    "INSERT INTO campaigns (tenant_id, name, type, assistant_id, voice_provider_id, "
    "dialer_type, provider_a_calling_entity, phone_number_id, phone_number_pool_id, "
    "start_date, end_date, timezone, days_of_week, daily_start_time, daily_end_time, "
    "max_call_attempts, max_daily_attempts, min_gap_between_attempts, "
    "consider_voicemail_as_answered, webhook_url, lead_local_time, failure_breaker_calls, "
    "failure_breaker_percent, calling_purpose) VALUES ($1, $2, "
    "coalesce($3, 'OUTBOUND'), $4, $5, $6, $7, $8, $9, $10::date, $11::date, $12, $13::text[], "
    "$14, $15, $16, $17, $18, coalesce($19::boolean, false), $20, coalesce($21::boolean, false), "
    "$22::int, $23::int, $24) "
    "RETURNING " CAMPAIGN_COLUMNS};

// The tenant's campaigns, newest first by id, the order they were created
// in: the key (tenant_id, id) is then both the range and the order, so no
// plan reads a large tenant's campaigns to sort them. A NULL status ($2),
// type ($3) or id list ($4) matches every campaign.
#define CAMPAIGN_LIST_WHERE                                                                        \
  " FROM campaigns WHERE tenant_id = $1 AND ($2::text IS NULL OR status = $2) "                    \
  "AND ($3::text IS NULL OR type = $3) AND ($4::bigint[] IS NULL OR id = ANY($4)) "
constexpr prepared_statement count_listed_stmt{"vcs_count_campaigns",
                                               VCS_COUNT_AT_MOST(CAMPAIGN_LIST_WHERE)};
constexpr prepared_statement list_stmt{"vcs_list_campaigns",
                                       "SELECT " CAMPAIGN_COLUMNS CAMPAIGN_LIST_WHERE
                                       "ORDER BY id DESC LIMIT $5 OFFSET $6"};
#undef CAMPAIGN_LIST_WHERE

#define CAMPAIGN_SELECT                                                                            \
  "SELECT " CAMPAIGN_COLUMNS " FROM campaigns WHERE tenant_id = $1 AND id = $2"
constexpr prepared_statement select_stmt{"vcs_find_campaign", CAMPAIGN_SELECT};
constexpr prepared_statement select_for_update_stmt{"vcs_find_campaign_for_update",
                                                    CAMPAIGN_SELECT " FOR UPDATE"};
#undef CAMPAIGN_SELECT

constexpr prepared_statement update_stmt{
    "vcs_update_campaign",
    "UPDATE campaigns SET name = coalesce($3, name), "
    "assistant_id = coalesce($4, assistant_id), "
    "voice_provider_id = coalesce($5, voice_provider_id), "
    "dialer_type = coalesce($6, dialer_type), "
    "phone_number_id = coalesce($7, phone_number_id), "
    "phone_number_pool_id = coalesce($8, phone_number_pool_id), "
    "timezone = coalesce($9, timezone), "
    "days_of_week = coalesce($10::text[], days_of_week), "
    "daily_start_time = coalesce($11, daily_start_time), "
    "daily_end_time = coalesce($12, daily_end_time), "
    "max_call_attempts = coalesce($13, max_call_attempts), "
    "max_daily_attempts = coalesce($14, max_daily_attempts), "
    "min_gap_between_attempts = coalesce($15, min_gap_between_attempts), "
    "consider_voicemail_as_answered = coalesce($16::boolean, consider_voicemail_as_answered), "
    "webhook_url = coalesce($17, webhook_url), "
    "lead_local_time = coalesce($18::boolean, lead_local_time), "
    "failure_breaker_calls = coalesce($19::int, failure_breaker_calls), "
    "failure_breaker_percent = coalesce($20::int, failure_breaker_percent), "
    "calling_purpose = coalesce($21, calling_purpose), updated_at = now() "
    "WHERE tenant_id = $1 AND id = $2 RETURNING " CAMPAIGN_COLUMNS};

// Only an ACTIVE campaign trips: one paused meanwhile keeps its reason.
constexpr prepared_statement trip_stmt{
    "vcs_trip_failure_breaker",
    "UPDATE campaigns SET status = 'PAUSED', pause_reason = 'failure_breaker', "
    "failure_breaker_after = $3, updated_at = now() "
    "WHERE tenant_id = $1 AND id = $2 AND status = 'ACTIVE' RETURNING " CAMPAIGN_COLUMNS};

// Likewise only an ACTIVE campaign pauses for its provider's refusal.
constexpr prepared_statement credentials_pause_stmt{
    "vcs_pause_for_provider_credentials",
    "UPDATE campaigns SET status = 'PAUSED', pause_reason = 'provider_credentials', "
    "updated_at = now() WHERE tenant_id = $1 AND id = $2 AND status = 'ACTIVE' "
    "RETURNING " CAMPAIGN_COLUMNS};

constexpr prepared_statement status_stmt{
    "vcs_set_campaign_status",
    "UPDATE campaigns SET status = $3, "
    "pause_reason = CASE WHEN $3 = 'PAUSED' THEN 'manual' END, updated_at = now() "
    "WHERE tenant_id = $1 AND id = $2 RETURNING " CAMPAIGN_COLUMNS};
#undef CAMPAIGN_COLUMNS

// Campaign ids in assignments are stored as canonical global ids.
constexpr prepared_statement blocking_stmt{
    "vcs_blocking_subscription",
    "SELECT s.status FROM assigned_resources ar "
    "JOIN account_configurations ac ON ac.tenant_id = ar.tenant_id "
    "AND ac.id = ar.account_configuration_id "
    "JOIN subscriptions s ON s.tenant_id = ac.tenant_id AND s.client_id = ac.client_id "
    "WHERE ar.tenant_id = $1 AND ar.resource_kind = 'campaign' AND ar.resource_id = $2 "
    "AND s.status IN ('past_due', 'blocked') ORDER BY s.id LIMIT 1"};

// The update is the row lock, and the bump tells every node's lead page
// cache that the pages it holds may be stale once this commits.
constexpr prepared_statement lock_stmt{"vcs_lock_campaign",
                                       "UPDATE campaigns SET leads_version = leads_version + 1 "
                                       "WHERE tenant_id = $1 AND id = $2 RETURNING 1"};

domain::campaign campaign_of(const pg_rows& rows, int i) {
  namespace col = campaign_col;
  domain::campaign c;
  c.id = rows.int64(i, col::id);
  c.tenant_id = rows.int64(i, col::tenant_id);
  c.name = rows.text(i, col::name);
  c.type = rows.text(i, col::type);
  c.status = rows.parsed(i, col::status, domain::parse_campaign_status);
  c.assistant_id = rows.opt_text(i, col::assistant_id);
  c.voice_provider_id = rows.opt_int64(i, col::voice_provider_id);
  c.dialer_type = rows.opt_text(i, col::dialer_type);
  c.provider_a_calling_entity = rows.opt_text(i, col::provider_a_calling_entity);
  c.phone_number_id = rows.opt_text(i, col::phone_number_id);
  c.phone_number_pool_id = rows.opt_text(i, col::phone_number_pool_id);
  c.start_date = rows.opt_text(i, col::start_date);
  c.end_date = rows.opt_text(i, col::end_date);
  c.timezone = rows.opt_text(i, col::timezone);
  if (!rows.is_null(i, col::days_of_week))
    c.days_of_week = rows.text_array(i, col::days_of_week);
  c.daily_start_time = rows.opt_text(i, col::daily_start_time);
  c.daily_end_time = rows.opt_text(i, col::daily_end_time);
  c.max_call_attempts = rows.opt_int32(i, col::max_call_attempts);
  c.max_daily_attempts = rows.opt_int32(i, col::max_daily_attempts);
  c.min_gap_between_attempts = rows.opt_int32(i, col::min_gap_between_attempts);
  c.consider_voicemail_as_answered = rows.boolean(i, col::consider_voicemail_as_answered);
  c.webhook_url = rows.opt_text(i, col::webhook_url);
  c.lead_count = rows.int64(i, col::lead_count);
  c.created_at = rows.timestamp(i, col::created_at);
  c.updated_at = rows.timestamp(i, col::updated_at);
  c.lead_local_time = rows.boolean(i, col::lead_local_time);
  c.next_dial_at = rows.opt_timestamp(i, col::next_dial_at);
  if (!rows.is_null(i, col::pause_reason))
    c.paused_for = rows.parsed(i, col::pause_reason, domain::parse_pause_reason);
  c.failure_breaker_calls = rows.opt_int32(i, col::failure_breaker_calls);
  c.failure_breaker_percent = rows.opt_int32(i, col::failure_breaker_percent);
  c.failure_breaker_after = rows.int64(i, col::failure_breaker_after);
  if (!rows.is_null(i, col::calling_purpose))
    c.purpose_set = rows.parsed(i, col::calling_purpose, domain::parse_calling_purpose);
  c.purpose = rows.parsed(i, col::effective_calling_purpose, domain::parse_calling_purpose);
  c.tenant_cap = contact_cap_of(rows, i, col::tenant_cap_calls);
  return c;
}

domain::campaign expect_row(const pg_rows& rows) {
  if (rows.size() == 0)
    throw std::runtime_error("campaign row vanished inside its transaction");
  return campaign_of(rows, 0);
}

} // namespace

std::optional<campaign_quota> lock_campaign_quota(soci::session& sql, int64_t tenant_id) {
  auto tenant = execute(sql, quota_stmt, {tenant_id});
  if (tenant.size() == 0)
    return std::nullopt;
  campaign_quota q;
  q.limit = tenant.opt_int32(0, 1).value_or(
      domain::default_campaign_limit(tenant.parsed(0, 0, domain::parse_plan)));
  q.used = execute(sql, count_stmt, {tenant_id}).int64(0, 0);
  return q;
}

domain::campaign insert_campaign(soci::session& sql, int64_t tenant_id,
                                 const domain::campaign_fields& f) {
  return expect_row(execute(sql, insert_stmt,
                            {tenant_id,
                             f.name,
                             f.type,
                             f.assistant_id,
                             f.voice_provider_id,
                             f.dialer_type,
                             f.provider_a_calling_entity,
                             f.phone_number_id,
                             f.phone_number_pool_id,
                             f.start_date,
                             f.end_date,
                             f.timezone,
                             f.days_of_week,
                             f.daily_start_time,
                             f.daily_end_time,
                             f.max_call_attempts,
                             f.max_daily_attempts,
                             f.min_gap_between_attempts,
                             f.consider_voicemail_as_answered,
                             f.webhook_url,
                             f.lead_local_time,
                             f.failure_breaker_calls,
                             f.failure_breaker_percent,
                             f.calling_purpose}));
}

page_of<domain::campaign> list_campaigns(soci::session& sql, int64_t tenant_id,
                                         const campaign_filter& filter, const page_request& page) {
  auto total =
      execute(sql, count_listed_stmt, {tenant_id, filter.status, filter.type, filter.only});
  auto rows = execute(
      sql, list_stmt,
      {tenant_id, filter.status, filter.type, filter.only, page.page_size, offset_of(page)});
  return capped_page_from(total, rows, campaign_of);
}

std::optional<domain::campaign> find_campaign(soci::session& sql, int64_t tenant_id,
                                              int64_t campaign_id, bool for_update) {
  auto rows =
      execute(sql, for_update ? select_for_update_stmt : select_stmt, {tenant_id, campaign_id});
  if (rows.size() == 0)
    return std::nullopt;
  return campaign_of(rows, 0);
}

domain::campaign update_campaign(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                 const domain::campaign_fields& f) {
  return expect_row(execute(sql, update_stmt,
                            {tenant_id,
                             campaign_id,
                             f.name,
                             f.assistant_id,
                             f.voice_provider_id,
                             f.dialer_type,
                             f.phone_number_id,
                             f.phone_number_pool_id,
                             f.timezone,
                             f.days_of_week,
                             f.daily_start_time,
                             f.daily_end_time,
                             f.max_call_attempts,
                             f.max_daily_attempts,
                             f.min_gap_between_attempts,
                             f.consider_voicemail_as_answered,
                             f.webhook_url,
                             f.lead_local_time,
                             f.failure_breaker_calls,
                             f.failure_breaker_percent,
                             f.calling_purpose}));
}

domain::campaign set_campaign_status(soci::session& sql, int64_t tenant_id, int64_t campaign_id,
                                     domain::campaign_status status) {
  return expect_row(execute(sql, status_stmt, {tenant_id, campaign_id, domain::to_string(status)}));
}

std::optional<domain::campaign> trip_failure_breaker(soci::session& sql, int64_t tenant_id,
                                                     int64_t campaign_id, int64_t last_call_id) {
  auto rows = execute(sql, trip_stmt, {tenant_id, campaign_id, last_call_id});
  if (rows.size() == 0)
    return std::nullopt;
  return campaign_of(rows, 0);
}

std::optional<domain::campaign>
pause_for_provider_credentials(soci::session& sql, int64_t tenant_id, int64_t campaign_id) {
  auto rows = execute(sql, credentials_pause_stmt, {tenant_id, campaign_id});
  if (rows.size() == 0)
    return std::nullopt;
  return campaign_of(rows, 0);
}

bool begin_locking_campaign(soci::session& sql, int64_t tenant_id, int64_t campaign_id) {
  return begin_with(sql, lock_stmt, {tenant_id, campaign_id}).size() > 0;
}

std::optional<std::string> blocking_subscription_status(soci::session& sql, int64_t tenant_id,
                                                        int64_t campaign_id) {
  auto rows = execute(sql, blocking_stmt,
                      {tenant_id, domain::encode_global_id(domain::entity::campaign, campaign_id)});
  if (rows.size() == 0)
    return std::nullopt;
  return rows.opt_text(0, 0);
}

} // namespace vcs::storage
