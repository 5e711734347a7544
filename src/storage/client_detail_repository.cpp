#include "storage/client_detail_repository.hpp"

#include "domain/global_id.hpp"
#include "storage/nullable.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace vcs::storage {

namespace {

constexpr const char* client_sql =
    "SELECT id, name, primary_email, created_at FROM clients WHERE tenant_id = :t AND id = :c";
constexpr const char* users_sql =
    "SELECT id, email FROM client_users WHERE tenant_id = :t AND client_id = :c ORDER BY id";
constexpr const char* subscription_sql =
    "SELECT s.id, coalesce(s.processor_id, ''), s.status, s.created_at, s.trial_start, "
    "s.trial_end, s.trial_minutes, s.current_period_start, s.current_period_end, "
    "s.billing_cycle_anchor, p.id, p.processor_product_id, p.name, p.pricing_model, "
    "p.min_minutes_included, p.additional_minute_price, p.trial_days, "
    "coalesce(u.minutes_included_used, 0), coalesce(u.minutes_billable_used, 0) "
    "FROM subscriptions s JOIN products p ON p.tenant_id = s.tenant_id AND p.id = s.product_id "
    "LEFT JOIN usage_balances u ON u.subscription_id = s.id "
    "WHERE s.tenant_id = :t AND s.client_id = :c AND s.status <> 'canceled' "
    "ORDER BY s.id DESC LIMIT 1";
constexpr const char* prices_sql =
    "SELECT pr.id, pr.processor_price_id, pr.billing_type, pr.usage_type, pr.unit_amount, "
    "pr.currency, pr.\"interval\", pr.active::int FROM subscription_prices sp "
    "JOIN prices pr ON pr.id = sp.price_id WHERE sp.subscription_id = :s ORDER BY pr.id";
constexpr const char* assigned_campaigns_sql =
    "SELECT DISTINCT ar.resource_id FROM assigned_resources ar JOIN account_configurations ac "
    "ON ac.tenant_id = ar.tenant_id AND ac.id = ar.account_configuration_id "
    "WHERE ar.tenant_id = :t AND ac.client_id = :c AND ar.resource_kind = 'campaign'";
constexpr const char* campaigns_sql =
    "SELECT c.id, c.name, c.type, c.status, c.lead_count, "
    "(SELECT count(*) FROM web_widgets w WHERE w.campaign_id = c.id) "
    "FROM campaigns c WHERE c.tenant_id = :t AND c.id = ANY(:ids::bigint[]) ORDER BY c.id";
constexpr const char* lead_statuses_sql =
    "SELECT campaign_id, call_status, count(*), count(*) FILTER (WHERE answered) FROM leads "
    "WHERE tenant_id = :t AND campaign_id = ANY(:ids::bigint[]) GROUP BY 1, 2";
constexpr const char* submissions_sql =
    "SELECT s.id, s.form_id, f.title, s.response_data, s.is_test::int, s.created_at, "
    "s.updated_at FROM form_submissions s JOIN client_forms f ON f.tenant_id = s.tenant_id "
    "AND f.id = s.form_id WHERE s.tenant_id = :t AND s.client_id = :c "
    "ORDER BY s.created_at DESC, s.id DESC LIMIT 100";

std::optional<domain::subscription_view> read_subscription(soci::session& sql, int64_t tenant_id,
                                                           int64_t client_id) {
  domain::subscription_view s;
  auto& p = s.catalog_product;
  std::string created, start, end, anchor;
  nullable_text trial_start, trial_end;
  soci::statement st =
      (sql.prepare << subscription_sql, soci::use(tenant_id), soci::use(client_id),
       soci::into(s.id), soci::into(s.processor_id), soci::into(s.status), soci::into(created),
       soci::into(trial_start.value, trial_start.ind), soci::into(trial_end.value, trial_end.ind),
       soci::into(s.trial_minutes), soci::into(start), soci::into(end), soci::into(anchor),
       soci::into(p.id), soci::into(p.processor_product_id), soci::into(p.name),
       soci::into(p.pricing_model), soci::into(p.min_minutes_included),
       soci::into(p.additional_minute_price), soci::into(p.trial_days),
       soci::into(s.minutes_included_used), soci::into(s.minutes_billable_used));
  if (!st.execute(true))
    return std::nullopt;
  s.created_at = timestamp_column(created);
  s.trial_start = timestamp_column(trial_start);
  s.trial_end = timestamp_column(trial_end);
  s.current_period_start = timestamp_column(start);
  s.current_period_end = timestamp_column(end);
  s.billing_cycle_anchor = timestamp_column(anchor);
  domain::price price;
  nullable_text bt, ut, ua, iv;
  int active = 1;
  soci::statement prices =
      (sql.prepare << prices_sql, soci::use(s.id), soci::into(price.id),
       soci::into(price.processor_price_id), soci::into(bt.value, bt.ind),
       soci::into(ut.value, ut.ind), soci::into(ua.value, ua.ind), soci::into(price.currency),
       soci::into(iv.value, iv.ind), soci::into(active));
  prices.execute();
  while (prices.fetch()) {
    price.billing_type = bt.get();
    price.usage_type = ut.get();
    price.unit_amount = ua.get();
    price.interval = iv.get();
    price.active = active != 0;
    p.prices.push_back(price);
  }
  return s;
}

std::vector<domain::client_campaign_stats> read_campaigns(soci::session& sql, int64_t tenant_id,
                                                          int64_t client_id) {
  std::vector<int64_t> ids;
  std::string ref;
  soci::statement refs = (sql.prepare << assigned_campaigns_sql, soci::use(tenant_id),
                          soci::use(client_id), soci::into(ref));
  refs.execute();
  while (refs.fetch())
    if (auto id = domain::decode_global_id(domain::entity::campaign, ref))
      ids.push_back(*id);
  std::vector<domain::client_campaign_stats> out;
  if (ids.empty())
    return out;
  std::string array = "{";
  for (std::size_t i = 0; i < ids.size(); ++i)
    array += (i ? "," : "") + std::to_string(ids[i]);
  array += "}";
  domain::client_campaign_stats c;
  long long widgets = 0;
  soci::statement campaigns =
      (sql.prepare << campaigns_sql, soci::use(tenant_id), soci::use(array), soci::into(c.id),
       soci::into(c.name), soci::into(c.type), soci::into(c.status), soci::into(c.leads_count),
       soci::into(widgets));
  campaigns.execute();
  std::map<int64_t, std::size_t> index;
  while (campaigns.fetch()) {
    c.web_widget_enabled = widgets > 0;
    index[c.id] = out.size();
    out.push_back(c);
  }
  int64_t campaign_id = 0;
  std::string status;
  long long count = 0, answered = 0;
  soci::statement statuses =
      (sql.prepare << lead_statuses_sql, soci::use(tenant_id), soci::use(array),
       soci::into(campaign_id), soci::into(status), soci::into(count), soci::into(answered));
  statuses.execute();
  while (statuses.fetch()) {
    auto& stats = out[index.at(campaign_id)];
    stats.call_statuses.emplace_back(status, count);
    stats.answered_leads += answered;
  }
  for (auto& stats : out)
    std::sort(stats.call_statuses.begin(), stats.call_statuses.end(),
              [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

std::vector<domain::client_submission> read_submissions(soci::session& sql, int64_t tenant_id,
                                                        int64_t client_id) {
  std::vector<domain::client_submission> out;
  domain::client_submission s;
  int test = 0;
  std::string created, updated;
  soci::statement st = (sql.prepare << submissions_sql, soci::use(tenant_id), soci::use(client_id),
                        soci::into(s.submission.id), soci::into(s.submission.form_id),
                        soci::into(s.form_title), soci::into(s.submission.response_data_json),
                        soci::into(test), soci::into(created), soci::into(updated));
  st.execute();
  while (st.fetch()) {
    s.submission.client_id = client_id;
    s.submission.is_test = test != 0;
    s.submission.created_at = timestamp_column(created);
    s.submission.updated_at = timestamp_column(updated);
    out.push_back(s);
  }
  return out;
}

} // namespace

std::optional<domain::client_detail> read_client_detail(soci::session& sql, int64_t tenant_id,
                                                        int64_t client_id) {
  domain::client_detail d;
  auto& c = d.record;
  std::string created;
  soci::statement st =
      (sql.prepare << client_sql, soci::use(tenant_id), soci::use(client_id), soci::into(c.id),
       soci::into(c.name), soci::into(c.primary_email), soci::into(created));
  if (!st.execute(true))
    return std::nullopt;
  c.created_at = timestamp_column(created);
  domain::client_user u;
  soci::statement users = (sql.prepare << users_sql, soci::use(tenant_id), soci::use(client_id),
                           soci::into(u.id), soci::into(u.email));
  users.execute();
  while (users.fetch())
    c.users.push_back(u);
  d.subscription = read_subscription(sql, tenant_id, client_id);
  d.campaigns = read_campaigns(sql, tenant_id, client_id);
  d.submissions = read_submissions(sql, tenant_id, client_id);
  return d;
}

} // namespace vcs::storage
