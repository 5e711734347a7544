#include "storage/subscription_repository.hpp"

#include "domain/billing.hpp"
#include "domain/global_id.hpp"
#include "storage/nullable.hpp"

#include <soci/soci.h>

namespace vcs::storage {

namespace {

constexpr const char* lock_sql =
    "SELECT client_id, status FROM subscriptions WHERE tenant_id = :t AND id = :s FOR UPDATE";

constexpr const char* billing_sql =
    "SELECT s.client_id, s.status, s.current_period_start, s.current_period_end, "
    "s.billing_cycle_anchor, p.name, p.additional_minute_price, p.min_minutes_included, "
    "coalesce(p.currency, ''), u.minutes_included_limit, u.minutes_included_used, "
    "u.minutes_addon_balance, u.minutes_billable_used "
    "FROM subscriptions s JOIN products p ON p.tenant_id = s.tenant_id AND p.id = s.product_id "
    "JOIN usage_balances u ON u.tenant_id = s.tenant_id AND u.subscription_id = s.id "
    "WHERE s.tenant_id = :t AND s.id = :s";

constexpr const char* prices_sql =
    "SELECT pr.\"interval\", pr.usage_type, pr.unit_amount, pr.currency "
    "FROM subscription_prices sp JOIN prices pr ON pr.id = sp.price_id "
    "WHERE sp.subscription_id = :s AND pr.tenant_id = :t ORDER BY pr.id";

constexpr const char* set_status_sql =
    "UPDATE subscriptions SET status = :st WHERE tenant_id = :t AND id = :s";

// paid_at is set exactly while the request is PAID; a repeated PAID keeps
// the first payment's time.
constexpr const char* set_payment_sql =
    "UPDATE payment_requests SET status = :st, paid_at = CASE WHEN :st2 = 'PAID' THEN "
    "coalesce(CASE WHEN status = 'PAID' THEN paid_at END, now()) END, "
    "external_payment_id = coalesce(:e, external_payment_id) "
    "WHERE tenant_id = :t AND id = :id AND subscription_id IS NOT DISTINCT FROM :s "
    "RETURNING type";

constexpr const char* unresolved_sql =
    "SELECT count(*) FROM payment_requests WHERE tenant_id = :t AND subscription_id = :s "
    "AND type IN ('SUBSCRIPTION', 'OVERAGE') AND status IN ('PENDING', 'OVERDUE')";

constexpr const char* mark_overdue_sql =
    "UPDATE payment_requests SET status = 'OVERDUE' WHERE tenant_id = :t AND subscription_id = :s "
    "AND status = 'PENDING' AND due_date < :now::timestamptz RETURNING type";

constexpr const char* grace_sql =
    "SELECT count(*) FROM payment_requests WHERE tenant_id = :t AND subscription_id = :s "
    "AND type IN ('SUBSCRIPTION', 'OVERAGE') AND status = 'OVERDUE' "
    "AND grace_period_ends_at < :now::timestamptz";

// Campaign ids in assignments are canonical global ids.
constexpr const char* assigned_campaigns_sql =
    "SELECT ar.resource_id FROM assigned_resources ar JOIN account_configurations ac "
    "ON ac.tenant_id = ar.tenant_id AND ac.id = ar.account_configuration_id "
    "WHERE ar.tenant_id = :t AND ac.client_id = :c AND ar.resource_kind = 'campaign'";

// Every assigned campaign is locked (in id order) before the pause looks at
// statuses: a campaign actor changing one of them holds its row lock until
// it commits, so the pause then sees its outcome, and a campaign actor
// starting afterwards sees past_due (campaign_actor.cpp checks it).
constexpr const char* lock_campaigns_sql =
    "SELECT count(*) FROM (SELECT id FROM campaigns WHERE tenant_id = :t "
    "AND id = ANY(:ids::bigint[]) ORDER BY id FOR UPDATE) locked";

constexpr const char* pause_sql =
    "WITH target AS (SELECT id, status FROM campaigns WHERE tenant_id = :t "
    "AND id = ANY(:ids::bigint[]) AND status IN ('ACTIVE', 'SCHEDULED')), "
    "recorded AS (INSERT INTO campaign_billing_pauses (campaign_id, tenant_id, subscription_id, "
    "previous_status) SELECT id, :t2, :s, status FROM target "
    "ON CONFLICT (campaign_id) DO NOTHING) "
    "UPDATE campaigns c SET status = 'PAUSED' FROM target "
    "WHERE c.tenant_id = :t3 AND c.id = target.id";

constexpr const char* lock_paused_sql =
    "SELECT count(*) FROM (SELECT c.id FROM campaigns c JOIN campaign_billing_pauses b "
    "ON b.tenant_id = c.tenant_id AND b.campaign_id = c.id "
    "WHERE b.tenant_id = :t AND b.subscription_id = :s ORDER BY c.id FOR UPDATE OF c) locked";

constexpr const char* resume_sql =
    "WITH released AS (DELETE FROM campaign_billing_pauses WHERE tenant_id = :t "
    "AND subscription_id = :s RETURNING campaign_id, previous_status) "
    "UPDATE campaigns c SET status = released.previous_status FROM released "
    "WHERE c.tenant_id = :t2 AND c.id = released.campaign_id AND c.status = 'PAUSED'";

constexpr const char* period_sql =
    "UPDATE subscriptions SET current_period_start = :ps::timestamptz, "
    "current_period_end = :pe::timestamptz WHERE tenant_id = :t AND id = :s";

constexpr const char* reset_usage_sql =
    "UPDATE usage_balances SET minutes_included_limit = :lim::numeric, minutes_included_used = 0, "
    "minutes_billable_used = 0, current_period_start = :ps::timestamptz, "
    "current_period_end = :pe::timestamptz WHERE tenant_id = :t AND subscription_id = :s";

constexpr const char* insert_cycle_sql =
    "INSERT INTO payment_requests (tenant_id, client_id, subscription_id, type, amount, currency, "
    "due_date, grace_period_ends_at, period_start, period_end, line_items) VALUES (:t, :c, :s, "
    ":ty, :a::numeric, upper(:cur), :due::timestamptz, :grace::timestamptz, :ps::timestamptz, "
    ":pe::timestamptz, jsonb_build_array(jsonb_build_object('description', :d::text, "
    "'quantity', :q::text, 'unit_amount', :u::text, 'amount', :a2::text)))";

constexpr const char* usage_columns =
    "u.client_id, c.name, u.subscription_id, u.minutes_included_limit, u.minutes_included_used, "
    "u.minutes_addon_balance, u.minutes_billable_used, u.current_period_start, "
    "u.current_period_end, u.updated_at";

const std::string usage_sql =
    std::string{"SELECT "} + usage_columns +
    " FROM usage_balances u JOIN clients c ON c.tenant_id = u.tenant_id AND c.id = u.client_id "
    "WHERE u.tenant_id = :t AND u.subscription_id = :s";

// Answers the stored record, so a recording reads its balance only once.
const std::string store_usage_sql =
    std::string{"UPDATE usage_balances u SET minutes_included_used = :iu::numeric, "
                "minutes_addon_balance = :ab::numeric, minutes_billable_used = :bu::numeric "
                "FROM clients c WHERE c.tenant_id = u.tenant_id AND c.id = u.client_id "
                "AND u.tenant_id = :t AND u.subscription_id = :s RETURNING "} +
    usage_columns;

constexpr const char* live_subscription_sql =
    "SELECT tenant_id, id FROM subscriptions WHERE client_id = :c AND status <> 'canceled'";

// Three index-friendly sources: period ends, PENDING requests past due, and
// past_due subscriptions with an expired grace period.
constexpr const char* to_sweep_sql =
    "SELECT tenant_id, id FROM ("
    "SELECT tenant_id, id FROM subscriptions WHERE status IN ('active', 'past_due') "
    "AND current_period_end <= :now::timestamptz "
    "UNION SELECT tenant_id, subscription_id FROM payment_requests WHERE status = 'PENDING' "
    "AND due_date < :now2::timestamptz AND subscription_id IS NOT NULL "
    "UNION SELECT pr.tenant_id, pr.subscription_id FROM payment_requests pr JOIN subscriptions s "
    "ON s.tenant_id = pr.tenant_id AND s.id = pr.subscription_id WHERE pr.status = 'OVERDUE' "
    "AND pr.grace_period_ends_at < :now3::timestamptz AND s.status = 'past_due'"
    ") due WHERE id > :after ORDER BY id LIMIT :lim";

constexpr const char* unlinked_overdue_sql =
    "UPDATE payment_requests SET status = 'OVERDUE' WHERE status = 'PENDING' "
    "AND due_date < :now::timestamptz AND subscription_id IS NULL";

// An arbitrary constant shared by every node (migrations use another).
constexpr long long sweep_lock_key = 7'216'100'002;

int64_t units(const std::string& decimal, int scale) {
  return domain::to_units(decimal, scale);
}

std::string minutes_text(int64_t hundredths) {
  return domain::from_units(hundredths, 2, 2);
}

std::string pg_array(const std::vector<int64_t>& ids) {
  std::string out = "{";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i > 0)
      out += ',';
    out += std::to_string(ids[i]);
  }
  return out + "}";
}

} // namespace

std::optional<subscription_state> lock_subscription(soci::session& sql, int64_t tenant_id,
                                                    int64_t subscription_id) {
  subscription_state state;
  sql << lock_sql, soci::use(tenant_id), soci::use(subscription_id), soci::into(state.client_id),
      soci::into(state.status);
  if (!sql.got_data())
    return std::nullopt;
  return state;
}

std::optional<subscription_billing> load_subscription_billing(soci::session& sql, int64_t tenant_id,
                                                              int64_t subscription_id) {
  subscription_billing b;
  std::string start, end, anchor, minute_price, included, limit, used, addon, billable;
  sql << billing_sql, soci::use(tenant_id), soci::use(subscription_id), soci::into(b.client_id),
      soci::into(b.status), soci::into(start), soci::into(end), soci::into(anchor),
      soci::into(b.product_name), soci::into(minute_price), soci::into(included),
      soci::into(b.currency), soci::into(limit), soci::into(used), soci::into(addon),
      soci::into(billable);
  if (!sql.got_data())
    return std::nullopt;
  b.period_start = timestamp_column(start);
  b.period_end = timestamp_column(end);
  b.anchor = timestamp_column(anchor);
  b.minute_price_units = units(minute_price, 4);
  b.included_hundredths = units(included, 2);
  b.usage = {units(limit, 2), units(used, 2), units(addon, 2), units(billable, 2)};

  nullable_text interval, usage_type, amount;
  std::string currency;
  soci::statement st =
      (sql.prepare << prices_sql, soci::use(subscription_id), soci::use(tenant_id),
       soci::into(interval.value, interval.ind), soci::into(usage_type.value, usage_type.ind),
       soci::into(amount.value, amount.ind), soci::into(currency));
  st.execute();
  bool have_interval = false;
  bool have_currency = false;
  while (st.fetch()) {
    if (!have_interval && interval.get()) {
      b.interval = domain::interval_of(interval.get());
      have_interval = true;
    }
    if (!have_currency) {
      b.currency = currency;
      have_currency = true;
    }
    if (amount.get() && usage_type.get() != "metered")
      b.flat_price_units.push_back(units(amount.value, 4));
  }
  if (b.currency.empty())
    b.currency = "USD";
  return b;
}

void set_subscription_status(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                             const std::string& status) {
  sql << set_status_sql, soci::use(status), soci::use(tenant_id), soci::use(subscription_id);
}

std::optional<std::string> set_payment_status(soci::session& sql, int64_t tenant_id,
                                              std::optional<int64_t> subscription_id,
                                              int64_t payment_id, const std::string& status,
                                              const std::optional<std::string>& external_id) {
  nullable_text ext{external_id};
  nullable<int64_t> sub{subscription_id};
  std::string type;
  sql << set_payment_sql, soci::use(status), soci::use(status), soci::use(ext.value, ext.ind),
      soci::use(tenant_id), soci::use(payment_id), soci::use(sub.value, sub.ind), soci::into(type);
  if (!sql.got_data())
    return std::nullopt;
  return type;
}

int64_t unresolved_cycle_requests(soci::session& sql, int64_t tenant_id, int64_t subscription_id) {
  int64_t n = 0;
  sql << unresolved_sql, soci::use(tenant_id), soci::use(subscription_id), soci::into(n);
  return n;
}

std::vector<std::string> mark_overdue(soci::session& sql, int64_t tenant_id,
                                      int64_t subscription_id, domain::timestamp now) {
  auto at = domain::to_pg_timestamp(now);
  std::vector<std::string> types;
  std::string type;
  soci::statement st = (sql.prepare << mark_overdue_sql, soci::use(tenant_id),
                        soci::use(subscription_id), soci::use(at), soci::into(type));
  st.execute();
  while (st.fetch())
    types.push_back(type);
  return types;
}

bool grace_expired(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                   domain::timestamp now) {
  auto at = domain::to_pg_timestamp(now);
  int64_t n = 0;
  sql << grace_sql, soci::use(tenant_id), soci::use(subscription_id), soci::use(at), soci::into(n);
  return n > 0;
}

int64_t pause_client_campaigns(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                               int64_t client_id) {
  std::vector<int64_t> ids;
  std::string gid;
  {
    soci::statement st = (sql.prepare << assigned_campaigns_sql, soci::use(tenant_id),
                          soci::use(client_id), soci::into(gid));
    st.execute();
    while (st.fetch())
      if (auto id = domain::decode_global_id(domain::entity::campaign, gid))
        ids.push_back(*id);
  }
  if (ids.empty())
    return 0;
  auto array = pg_array(ids);
  int64_t locked = 0;
  sql << lock_campaigns_sql, soci::use(tenant_id), soci::use(array), soci::into(locked);
  soci::statement pause = (sql.prepare << pause_sql, soci::use(tenant_id), soci::use(array),
                           soci::use(tenant_id), soci::use(subscription_id), soci::use(tenant_id));
  pause.execute(true);
  return pause.get_affected_rows();
}

int64_t resume_billing_paused(soci::session& sql, int64_t tenant_id, int64_t subscription_id) {
  int64_t locked = 0;
  sql << lock_paused_sql, soci::use(tenant_id), soci::use(subscription_id), soci::into(locked);
  soci::statement resume = (sql.prepare << resume_sql, soci::use(tenant_id),
                            soci::use(subscription_id), soci::use(tenant_id));
  resume.execute(true);
  return resume.get_affected_rows();
}

void start_period(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                  domain::timestamp start, domain::timestamp end, int64_t included_hundredths) {
  auto ps = domain::to_pg_timestamp(start);
  auto pe = domain::to_pg_timestamp(end);
  auto limit = minutes_text(included_hundredths);
  sql << period_sql, soci::use(ps), soci::use(pe), soci::use(tenant_id), soci::use(subscription_id);
  sql << reset_usage_sql, soci::use(limit), soci::use(ps), soci::use(pe), soci::use(tenant_id),
      soci::use(subscription_id);
}

void insert_cycle_request(soci::session& sql, int64_t tenant_id, int64_t subscription_id,
                          const cycle_request& r) {
  auto due = domain::to_pg_timestamp(r.due);
  auto grace = domain::to_pg_timestamp(r.grace_ends);
  auto ps = domain::to_pg_timestamp(r.period_start);
  auto pe = domain::to_pg_timestamp(r.period_end);
  sql << insert_cycle_sql, soci::use(tenant_id), soci::use(r.client_id), soci::use(subscription_id),
      soci::use(r.type), soci::use(r.amount), soci::use(r.currency), soci::use(due),
      soci::use(grace), soci::use(ps), soci::use(pe), soci::use(r.description),
      soci::use(r.quantity), soci::use(r.unit_amount), soci::use(r.amount);
}

namespace {

// Runs `query` (one usage row out, `bind` adds its parameters first).
template <class Bind>
std::optional<domain::usage_record> usage_row(soci::session& sql, const std::string& query,
                                              Bind bind) {
  domain::usage_record u;
  std::string start, end, updated;
  auto prep = (sql.prepare << query);
  bind(prep);
  prep, soci::into(u.client_id), soci::into(u.client_name), soci::into(u.subscription_id),
      soci::into(u.minutes_included_limit), soci::into(u.minutes_included_used),
      soci::into(u.minutes_addon_balance), soci::into(u.minutes_billable_used), soci::into(start),
      soci::into(end), soci::into(updated);
  soci::statement st{prep};
  if (!st.execute(true))
    return std::nullopt;
  u.current_period_start = timestamp_column(start);
  u.current_period_end = timestamp_column(end);
  u.updated_at = timestamp_column(updated);
  return u;
}

} // namespace

std::optional<domain::usage_record> find_usage(soci::session& sql, int64_t tenant_id,
                                               int64_t subscription_id) {
  return usage_row(sql, usage_sql, [&](soci::details::prepare_temp_type& p) {
    p, soci::use(tenant_id), soci::use(subscription_id);
  });
}

std::optional<domain::usage_record> store_usage(soci::session& sql, int64_t tenant_id,
                                                int64_t subscription_id,
                                                const domain::minute_balance& b) {
  auto used = minutes_text(b.included_used);
  auto addon = minutes_text(b.addon_balance);
  auto billable = minutes_text(b.billable_used);
  return usage_row(sql, store_usage_sql, [&](soci::details::prepare_temp_type& p) {
    p, soci::use(used), soci::use(addon), soci::use(billable), soci::use(tenant_id),
        soci::use(subscription_id);
  });
}

std::optional<subscription_ref> live_subscription_of_client(soci::session& sql, int64_t client_id) {
  subscription_ref r;
  sql << live_subscription_sql, soci::use(client_id), soci::into(r.tenant_id),
      soci::into(r.subscription_id);
  if (!sql.got_data())
    return std::nullopt;
  return r;
}

std::vector<subscription_ref> subscriptions_to_sweep(soci::session& sql, domain::timestamp now,
                                                     int64_t after, int32_t limit) {
  auto at = domain::to_pg_timestamp(now);
  std::vector<subscription_ref> out;
  subscription_ref r;
  soci::statement st =
      (sql.prepare << to_sweep_sql, soci::use(at), soci::use(at), soci::use(at), soci::use(after),
       soci::use(limit), soci::into(r.tenant_id), soci::into(r.subscription_id));
  st.execute();
  while (st.fetch())
    out.push_back(r);
  return out;
}

int64_t mark_unlinked_overdue(soci::session& sql, domain::timestamp now) {
  auto at = domain::to_pg_timestamp(now);
  soci::statement st = (sql.prepare << unlinked_overdue_sql, soci::use(at));
  st.execute(true);
  return st.get_affected_rows();
}

bool try_sweep_lock(soci::session& sql) {
  int got = 0;
  sql << "SELECT pg_try_advisory_lock(:k)::int", soci::use(sweep_lock_key), soci::into(got);
  return got == 1;
}

void release_sweep_lock(soci::session& sql) {
  int released = 0;
  sql << "SELECT pg_advisory_unlock(:k)::int", soci::use(sweep_lock_key), soci::into(released);
}

} // namespace vcs::storage
