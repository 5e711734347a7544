#include "storage/subscription_repository.hpp"

#include "domain/billing.hpp"
#include "domain/global_id.hpp"
#include "storage/prepared.hpp"
#include "storage/usage_row.hpp"

namespace vcs::storage {

namespace {

constexpr prepared_statement lock_stmt{
    "vcs_lock_subscription",
    "SELECT client_id, status FROM subscriptions WHERE tenant_id = $1 AND id = $2 FOR UPDATE"};

constexpr prepared_statement billing_stmt{
    "vcs_subscription_billing",
    "SELECT s.client_id, s.status, s.current_period_start, s.current_period_end, "
    "s.billing_cycle_anchor, p.name, p.additional_minute_price, p.min_minutes_included, "
    "coalesce(p.currency, ''), u.minutes_included_limit, u.minutes_included_used, "
    "u.minutes_addon_balance, u.minutes_billable_used "
    "FROM subscriptions s JOIN products p ON p.tenant_id = s.tenant_id AND p.id = s.product_id "
    "JOIN usage_balances u ON u.tenant_id = s.tenant_id AND u.subscription_id = s.id "
    "WHERE s.tenant_id = $1 AND s.id = $2"};
namespace billing_col {
enum : int {
  client_id,
  status,
  period_start,
  period_end,
  anchor,
  product_name,
  minute_price,
  included,
  currency,
  limit,
  used,
  addon,
  billable
};
}

constexpr prepared_statement prices_stmt{
    "vcs_subscription_prices",
    "SELECT pr.\"interval\", pr.usage_type, pr.unit_amount, pr.currency "
    "FROM subscription_prices sp JOIN prices pr ON pr.id = sp.price_id "
    "WHERE sp.subscription_id = $1 AND pr.tenant_id = $2 ORDER BY pr.id"};

constexpr prepared_statement set_status_stmt{
    "vcs_set_subscription_status",
    "UPDATE subscriptions SET status = $3 WHERE tenant_id = $1 AND id = $2"};

// paid_at is set exactly while the request is PAID; a repeated PAID keeps
// the first payment's time.
constexpr prepared_statement set_payment_stmt{
    "vcs_set_payment_status",
    "UPDATE payment_requests SET status = $1, paid_at = CASE WHEN $1 = 'PAID' THEN "
    "coalesce(CASE WHEN status = 'PAID' THEN paid_at END, now()) END, "
    "external_payment_id = coalesce($2, external_payment_id) "
    "WHERE tenant_id = $3 AND id = $4 AND subscription_id IS NOT DISTINCT FROM $5 "
    "RETURNING type"};

constexpr prepared_statement unresolved_stmt{
    "vcs_unresolved_cycle_requests",
    "SELECT count(*) FROM payment_requests WHERE tenant_id = $1 AND subscription_id = $2 "
    "AND type IN ('SUBSCRIPTION', 'OVERAGE') AND status IN ('PENDING', 'OVERDUE')"};

constexpr prepared_statement mark_overdue_stmt{
    "vcs_mark_overdue",
    "UPDATE payment_requests SET status = 'OVERDUE' WHERE tenant_id = $1 AND subscription_id = $2 "
    "AND status = 'PENDING' AND due_date < $3::timestamptz RETURNING type"};

constexpr prepared_statement grace_stmt{
    "vcs_grace_expired",
    "SELECT count(*) FROM payment_requests WHERE tenant_id = $1 AND subscription_id = $2 "
    "AND type IN ('SUBSCRIPTION', 'OVERAGE') AND status = 'OVERDUE' "
    "AND grace_period_ends_at < $3::timestamptz"};

// Campaign ids in assignments are canonical global ids.
constexpr prepared_statement assigned_campaigns_stmt{
    "vcs_client_assigned_campaigns",
    "SELECT ar.resource_id FROM assigned_resources ar JOIN account_configurations ac "
    "ON ac.tenant_id = ar.tenant_id AND ac.id = ar.account_configuration_id "
    "WHERE ar.tenant_id = $1 AND ac.client_id = $2 AND ar.resource_kind = 'campaign'"};

// Every assigned campaign is locked (in id order) before the pause looks at
// statuses: a campaign actor changing one of them holds its row lock until
// it commits, so the pause then sees its outcome, and a campaign actor
// starting afterwards sees past_due (campaign_actor.cpp checks it).
constexpr prepared_statement lock_campaigns_stmt{
    "vcs_lock_billing_campaigns",
    "SELECT count(*) FROM (SELECT id FROM campaigns WHERE tenant_id = $1 "
    "AND id = ANY($2::bigint[]) ORDER BY id FOR UPDATE) locked"};

// A record left by an earlier pause of a campaign that has since been
// changed by hand (it is ACTIVE or SCHEDULED again) is stale: this pause
// takes its place, so that its own resume finds it.
constexpr prepared_statement pause_stmt{
    "vcs_billing_pause_campaigns",
    "WITH target AS (SELECT id, status FROM campaigns WHERE tenant_id = $1 "
    "AND id = ANY($2::bigint[]) AND status IN ('ACTIVE', 'SCHEDULED')), "
    "recorded AS (INSERT INTO campaign_billing_pauses (campaign_id, tenant_id, subscription_id, "
    "previous_status, reason) SELECT id, $1, $3, status, $4 FROM target "
    "ON CONFLICT (campaign_id) DO UPDATE SET subscription_id = EXCLUDED.subscription_id, "
    "previous_status = EXCLUDED.previous_status, reason = EXCLUDED.reason, paused_at = now()) "
    "UPDATE campaigns c SET status = 'PAUSED', pause_reason = $4 FROM target "
    "WHERE c.tenant_id = $1 AND c.id = target.id RETURNING c.id, target.status"};

constexpr prepared_statement lock_paused_stmt{
    "vcs_lock_paused_campaigns",
    "SELECT count(*) FROM (SELECT c.id FROM campaigns c JOIN campaign_billing_pauses b "
    "ON b.tenant_id = c.tenant_id AND b.campaign_id = c.id "
    "WHERE b.tenant_id = $1 AND b.subscription_id = $2 AND b.reason = $3 "
    "ORDER BY c.id FOR UPDATE OF c) locked"};

constexpr prepared_statement resume_stmt{
    "vcs_resume_paused_campaigns",
    "WITH released AS (DELETE FROM campaign_billing_pauses WHERE tenant_id = $1 "
    "AND subscription_id = $2 AND reason = $3 RETURNING campaign_id, previous_status) "
    "UPDATE campaigns c SET status = released.previous_status, pause_reason = NULL "
    "FROM released WHERE c.tenant_id = $1 AND c.id = released.campaign_id "
    "AND c.status = 'PAUSED' AND c.pause_reason = $3 RETURNING c.id"};

constexpr prepared_statement period_stmt{
    "vcs_start_subscription_period",
    "UPDATE subscriptions SET current_period_start = $3::timestamptz, "
    "current_period_end = $4::timestamptz WHERE tenant_id = $1 AND id = $2"};

constexpr prepared_statement reset_usage_stmt{
    "vcs_reset_period_usage",
    "UPDATE usage_balances SET minutes_included_limit = $3::numeric, minutes_included_used = 0, "
    "minutes_billable_used = 0, current_period_start = $4::timestamptz, "
    "current_period_end = $5::timestamptz WHERE tenant_id = $1 AND subscription_id = $2"};

// The amount ($5) is text in both places, so the line item carries it
// exactly as given.
constexpr prepared_statement insert_cycle_stmt{
    "vcs_insert_cycle_request",
    "INSERT INTO payment_requests (tenant_id, client_id, subscription_id, type, amount, currency, "
    "due_date, grace_period_ends_at, period_start, period_end, line_items) VALUES ($1, $2, $3, "
    "$4, $5::text::numeric, upper($6), $7::timestamptz, $8::timestamptz, $9::timestamptz, "
    "$10::timestamptz, jsonb_build_array(jsonb_build_object('description', $11::text, "
    "'quantity', $12::text, 'unit_amount', $13::text, 'amount', $5::text)))"};

constexpr prepared_statement usage_stmt{
    "vcs_find_subscription_usage",
    "SELECT " VCS_USAGE_COLUMNS
    " FROM usage_balances u JOIN clients c ON c.tenant_id = u.tenant_id AND c.id = u.client_id "
    "WHERE u.tenant_id = $1 AND u.subscription_id = $2"};

// Answers the stored record, so a recording reads its balance only once.
constexpr prepared_statement store_usage_stmt{
    "vcs_store_subscription_usage",
    "UPDATE usage_balances u SET minutes_included_used = $3::numeric, "
    "minutes_addon_balance = $4::numeric, minutes_billable_used = $5::numeric "
    "FROM clients c WHERE c.tenant_id = u.tenant_id AND c.id = u.client_id "
    "AND u.tenant_id = $1 AND u.subscription_id = $2 RETURNING " VCS_USAGE_COLUMNS};

constexpr prepared_statement live_subscription_stmt{
    "vcs_live_subscription_of_client",
    "SELECT tenant_id, id FROM subscriptions WHERE client_id = $1 AND status <> 'canceled'"};

// Three index-friendly sources: period ends, PENDING requests past due, and
// past_due subscriptions with an expired grace period.
constexpr prepared_statement to_sweep_stmt{
    "vcs_subscriptions_to_sweep",
    "SELECT tenant_id, id FROM ("
    "SELECT tenant_id, id FROM subscriptions WHERE status IN ('active', 'past_due') "
    "AND current_period_end <= $1::timestamptz "
    "UNION SELECT tenant_id, subscription_id FROM payment_requests WHERE status = 'PENDING' "
    "AND due_date < $1::timestamptz AND subscription_id IS NOT NULL "
    "UNION SELECT pr.tenant_id, pr.subscription_id FROM payment_requests pr JOIN subscriptions s "
    "ON s.tenant_id = pr.tenant_id AND s.id = pr.subscription_id WHERE pr.status = 'OVERDUE' "
    "AND pr.grace_period_ends_at < $1::timestamptz AND s.status = 'past_due'"
    ") due WHERE id > $2 ORDER BY id LIMIT $3"};

constexpr prepared_statement unlinked_overdue_stmt{
    "vcs_mark_unlinked_overdue",
    "UPDATE payment_requests SET status = 'OVERDUE' WHERE status = 'PENDING' "
    "AND due_date < $1::timestamptz AND subscription_id IS NULL"};

constexpr prepared_statement try_sweep_lock_stmt{"vcs_try_sweep_lock",
                                                 "SELECT pg_try_advisory_lock($1)"};
constexpr prepared_statement release_sweep_lock_stmt{"vcs_release_sweep_lock",
                                                     "SELECT pg_advisory_unlock($1)"};

// An arbitrary constant shared by every node (migrations use another).
constexpr int64_t sweep_lock_key = 7'216'100'002;

int64_t units(std::string_view decimal, int scale) {
  return domain::to_units(decimal, scale);
}

std::string minutes_text(int64_t hundredths) {
  return domain::from_units(hundredths, 2, 2);
}

std::optional<domain::usage_record> usage_of(const pg_rows& rows) {
  if (rows.size() == 0)
    return std::nullopt;
  return usage_row(rows, 0);
}

} // namespace

std::optional<subscription_state> lock_subscription(soci::session& sql, int64_t tenant_id,
                                                    int64_t subscription_id) {
  auto rows = execute(sql, lock_stmt, {tenant_id, subscription_id});
  if (rows.size() == 0)
    return std::nullopt;
  return subscription_state{rows.int64(0, 0), std::string{rows.text(0, 1)}};
}

void begin_locking_subscription(soci::session& sql, int64_t tenant_id, int64_t subscription_id) {
  begin_with(sql, lock_stmt, {tenant_id, subscription_id});
}

std::optional<subscription_billing> load_subscription_billing(soci::session& sql, int64_t tenant_id,
                                                              int64_t subscription_id) {
  auto row = execute(sql, billing_stmt, {tenant_id, subscription_id});
  if (row.size() == 0)
    return std::nullopt;
  subscription_billing b;
  b.client_id = row.int64(0, billing_col::client_id);
  b.status = row.text(0, billing_col::status);
  b.period_start = row.timestamp(0, billing_col::period_start);
  b.period_end = row.timestamp(0, billing_col::period_end);
  b.anchor = row.timestamp(0, billing_col::anchor);
  b.product_name = row.text(0, billing_col::product_name);
  b.minute_price_units = units(row.text(0, billing_col::minute_price), 4);
  b.included_hundredths = units(row.text(0, billing_col::included), 2);
  b.currency = row.text(0, billing_col::currency);
  b.usage = {units(row.text(0, billing_col::limit), 2), units(row.text(0, billing_col::used), 2),
             units(row.text(0, billing_col::addon), 2),
             units(row.text(0, billing_col::billable), 2)};

  // Columns: interval, usage_type, unit_amount, currency.
  auto prices = execute(sql, prices_stmt, {subscription_id, tenant_id});
  bool have_interval = false;
  for (int i = 0; i < prices.size(); ++i) {
    auto interval = prices.opt_text(i, 0);
    if (!have_interval && interval) {
      b.interval = domain::interval_of(interval);
      have_interval = true;
    }
    if (i == 0)
      b.currency = prices.text(i, 3);
    if (!prices.is_null(i, 2) && prices.opt_text(i, 1) != "metered")
      b.flat_price_units.push_back(units(prices.text(i, 2), 4));
  }
  if (b.currency.empty())
    b.currency = "USD";
  return b;
}

void set_subscription_status(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                             const std::string& status) {
  execute(sql, set_status_stmt, {tenant_id, subscription_id, status});
}

std::optional<std::string> set_payment_status(soci::session& sql, int64_t tenant_id,
                                              std::optional<int64_t> subscription_id,
                                              int64_t payment_id, const std::string& status,
                                              const std::optional<std::string>& external_id) {
  auto rows =
      execute(sql, set_payment_stmt, {status, external_id, tenant_id, payment_id, subscription_id});
  if (rows.size() == 0)
    return std::nullopt;
  return std::string{rows.text(0, 0)};
}

int64_t unresolved_cycle_requests(soci::session& sql, int64_t tenant_id, int64_t subscription_id) {
  return execute(sql, unresolved_stmt, {tenant_id, subscription_id}).int64(0, 0);
}

std::vector<std::string> mark_overdue(soci::session& sql, int64_t tenant_id,
                                      int64_t subscription_id, domain::timestamp now) {
  auto rows = execute(sql, mark_overdue_stmt, {tenant_id, subscription_id, now});
  std::vector<std::string> types;
  types.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i)
    types.emplace_back(rows.text(i, 0));
  return types;
}

bool grace_expired(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                   domain::timestamp now) {
  return execute(sql, grace_stmt, {tenant_id, subscription_id, now}).int64(0, 0) > 0;
}

std::vector<moved_campaign> pause_client_campaigns(soci::session& sql, int64_t tenant_id,
                                                   int64_t subscription_id, int64_t client_id,
                                                   domain::pause_reason reason) {
  std::vector<int64_t> ids;
  {
    auto rows = execute(sql, assigned_campaigns_stmt, {tenant_id, client_id});
    for (int i = 0; i < rows.size(); ++i)
      if (auto id = domain::decode_global_id(domain::entity::campaign, rows.text(i, 0)))
        ids.push_back(*id);
  }
  if (ids.empty())
    return {};
  execute(sql, lock_campaigns_stmt, {tenant_id, ids});
  auto rows =
      execute(sql, pause_stmt, {tenant_id, ids, subscription_id, domain::to_string(reason)});
  std::vector<moved_campaign> paused;
  for (int i = 0; i < rows.size(); ++i)
    paused.push_back(
        {rows.int64(i, 0),
         domain::parse_campaign_status(rows.text(i, 1)).value_or(domain::campaign_status::active)});
  return paused;
}

std::vector<int64_t> resume_paused_campaigns(soci::session& sql, int64_t tenant_id,
                                             int64_t subscription_id, domain::pause_reason reason) {
  const auto name = domain::to_string(reason);
  if (execute(sql, lock_paused_stmt, {tenant_id, subscription_id, name}).int64(0, 0) == 0)
    return {};
  auto rows = execute(sql, resume_stmt, {tenant_id, subscription_id, name});
  std::vector<int64_t> resumed;
  for (int i = 0; i < rows.size(); ++i)
    resumed.push_back(rows.int64(i, 0));
  return resumed;
}

void start_period(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                  domain::timestamp start, domain::timestamp end, int64_t included_hundredths) {
  execute(sql, period_stmt, {tenant_id, subscription_id, start, end});
  execute(sql, reset_usage_stmt,
          {tenant_id, subscription_id, minutes_text(included_hundredths), start, end});
}

void insert_cycle_request(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                          const cycle_request& r) {
  execute(sql, insert_cycle_stmt,
          {tenant_id, r.client_id, subscription_id, r.type, r.amount, r.currency, r.due,
           r.grace_ends, r.period_start, r.period_end, r.description, r.quantity, r.unit_amount});
}

std::optional<domain::usage_record> find_usage(soci::session& sql, int64_t tenant_id,
                                               int64_t subscription_id) {
  return usage_of(execute(sql, usage_stmt, {tenant_id, subscription_id}));
}

std::optional<domain::usage_record> store_usage(soci::session& sql, int64_t tenant_id,
                                                int64_t subscription_id,
                                                const domain::minute_balance& b) {
  return usage_of(execute(sql, store_usage_stmt,
                          {tenant_id, subscription_id, minutes_text(b.included_used),
                           minutes_text(b.addon_balance), minutes_text(b.billable_used)}));
}

std::optional<subscription_ref> live_subscription_of_client(soci::session& sql, int64_t client_id) {
  auto rows = execute(sql, live_subscription_stmt, {client_id});
  if (rows.size() == 0)
    return std::nullopt;
  return subscription_ref{rows.int64(0, 0), rows.int64(0, 1)};
}

std::vector<subscription_ref> subscriptions_to_sweep(soci::session& sql, domain::timestamp now,
                                                     int64_t after, int32_t limit) {
  auto rows = execute(sql, to_sweep_stmt, {now, after, limit});
  std::vector<subscription_ref> out;
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i)
    out.push_back({rows.int64(i, 0), rows.int64(i, 1)});
  return out;
}

int64_t mark_unlinked_overdue(soci::session& sql, domain::timestamp now) {
  return execute(sql, unlinked_overdue_stmt, {now}).affected();
}

bool try_sweep_lock(soci::session& sql) {
  return execute(sql, try_sweep_lock_stmt, {sweep_lock_key}).boolean(0, 0);
}

void release_sweep_lock(soci::session& sql) {
  execute(sql, release_sweep_lock_stmt, {sweep_lock_key});
}

} // namespace vcs::storage
