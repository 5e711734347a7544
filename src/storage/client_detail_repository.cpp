#include "storage/client_detail_repository.hpp"

#include "domain/global_id.hpp"
#include "storage/lead_statistics.hpp"
#include "storage/prepared.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace vcs::storage {

namespace {

// Prepared once per connection: the detail is a hot read of client portals.
constexpr prepared_statement client_stmt{
    "vcs_detail_client",
    "SELECT id, name, primary_email, created_at FROM clients WHERE tenant_id = $1 AND id = $2"};
constexpr prepared_statement users_stmt{
    "vcs_detail_users",
    "SELECT id, email FROM client_users WHERE tenant_id = $1 AND client_id = $2 ORDER BY id"};
constexpr prepared_statement configurations_stmt{
    "vcs_detail_configurations", "SELECT id, name, voice_provider_id FROM account_configurations "
                                 "WHERE tenant_id = $1 AND client_id = $2 ORDER BY id"};
constexpr prepared_statement access_stmt{
    "vcs_detail_access", "SELECT resource_kind, access_level FROM client_access "
                         "WHERE tenant_id = $1 AND client_id = $2 ORDER BY resource_kind"};
constexpr prepared_statement subscription_stmt{
    "vcs_detail_subscription",
    "SELECT s.id, coalesce(s.processor_id, ''), s.status, s.created_at, s.trial_start, "
    "s.trial_end, s.trial_minutes, s.current_period_start, s.current_period_end, "
    "s.billing_cycle_anchor, p.id, p.processor_product_id, p.name, p.pricing_model, "
    "p.min_minutes_included, p.additional_minute_price, p.trial_days, "
    "coalesce(u.minutes_included_used, 0), coalesce(u.minutes_billable_used, 0) "
    "FROM subscriptions s JOIN products p ON p.tenant_id = s.tenant_id AND p.id = s.product_id "
    "LEFT JOIN usage_balances u ON u.subscription_id = s.id "
    "WHERE s.tenant_id = $1 AND s.client_id = $2 AND s.status <> 'canceled' "
    "ORDER BY s.id DESC LIMIT 1"};
constexpr prepared_statement prices_stmt{
    "vcs_detail_prices",
    "SELECT pr.id, pr.processor_price_id, pr.billing_type, pr.usage_type, pr.unit_amount, "
    "pr.currency, pr.\"interval\", pr.active FROM subscription_prices sp "
    "JOIN prices pr ON pr.id = sp.price_id WHERE sp.subscription_id = $2 AND pr.tenant_id = $1 "
    "ORDER BY pr.id"};
constexpr prepared_statement assigned_campaigns_stmt{
    "vcs_detail_assigned",
    "SELECT DISTINCT ar.resource_id FROM assigned_resources ar JOIN account_configurations ac "
    "ON ac.tenant_id = ar.tenant_id AND ac.id = ar.account_configuration_id "
    "WHERE ar.tenant_id = $1 AND ac.client_id = $2 AND ar.resource_kind = 'campaign'"};
constexpr prepared_statement campaigns_stmt{
    "vcs_detail_campaigns",
    "SELECT c.id, c.name, c.type, c.status, c.lead_count, "
    "EXISTS (SELECT 1 FROM web_widgets w WHERE w.campaign_id = c.id), "
    "coalesce(n.calls, 0), coalesce(n.evaluated_success, 0), coalesce(n.evaluated_failure, 0), "
    "coalesce(n.evaluated_unclear, 0) FROM campaigns c "
    "LEFT JOIN campaign_call_counts n ON n.campaign_id = c.id AND n.tenant_id = c.tenant_id "
    "WHERE c.tenant_id = $1 AND c.id = ANY($2::bigint[]) ORDER BY c.id"};
constexpr prepared_statement submissions_stmt{
    "vcs_detail_submissions",
    "SELECT s.id, s.form_id, f.title, s.response_data, s.is_test, s.created_at, "
    "s.updated_at FROM form_submissions s JOIN client_forms f ON f.tenant_id = s.tenant_id "
    "AND f.id = s.form_id WHERE s.tenant_id = $1 AND s.client_id = $2 "
    "ORDER BY s.created_at DESC, s.id DESC LIMIT 100"};

// The two parameters every statement here starts with.
struct scope {
  int64_t tenant_id = 0;
  int64_t client_id = 0;
};

std::optional<domain::subscription_view> read_subscription(soci::session& sql, const scope& k) {
  auto rows = execute(sql, subscription_stmt, {k.tenant_id, k.client_id});
  if (rows.size() == 0)
    return std::nullopt;
  domain::subscription_view s;
  auto& p = s.catalog_product;
  s.id = rows.int64(0, 0);
  s.processor_id = rows.text(0, 1);
  s.status = rows.text(0, 2);
  s.created_at = rows.timestamp(0, 3);
  s.trial_start = rows.opt_timestamp(0, 4);
  s.trial_end = rows.opt_timestamp(0, 5);
  s.trial_minutes = rows.text(0, 6);
  s.current_period_start = rows.timestamp(0, 7);
  s.current_period_end = rows.timestamp(0, 8);
  s.billing_cycle_anchor = rows.timestamp(0, 9);
  p.id = rows.int64(0, 10);
  p.processor_product_id = rows.text(0, 11);
  p.name = rows.text(0, 12);
  p.pricing_model = rows.text(0, 13);
  p.min_minutes_included = rows.text(0, 14);
  p.additional_minute_price = rows.text(0, 15);
  p.trial_days = rows.int32(0, 16);
  s.minutes_included_used = rows.text(0, 17);
  s.minutes_billable_used = rows.text(0, 18);
  auto prices = execute(sql, prices_stmt, {k.tenant_id, s.id});
  for (int i = 0; i < prices.size(); ++i) {
    auto& price = p.prices.emplace_back();
    price.id = prices.int64(i, 0);
    price.processor_price_id = prices.text(i, 1);
    price.billing_type = prices.opt_text(i, 2);
    price.usage_type = prices.opt_text(i, 3);
    price.unit_amount = prices.opt_text(i, 4);
    price.currency = prices.text(i, 5);
    price.interval = prices.opt_text(i, 6);
    price.active = prices.boolean(i, 7);
  }
  return s;
}

std::vector<domain::client_campaign_stats> read_campaigns(soci::session& sql, const scope& k) {
  std::vector<domain::client_campaign_stats> out;
  auto refs = execute(sql, assigned_campaigns_stmt, {k.tenant_id, k.client_id});
  std::vector<int64_t> assigned;
  for (int i = 0; i < refs.size(); ++i)
    if (auto id = domain::decode_global_id(domain::entity::campaign, refs.text(i, 0)))
      assigned.push_back(*id);
  if (assigned.empty())
    return out;
  auto campaigns = execute(sql, campaigns_stmt, {k.tenant_id, assigned});
  for (int i = 0; i < campaigns.size(); ++i) {
    auto& c = out.emplace_back();
    c.id = campaigns.int64(i, 0);
    c.name = campaigns.text(i, 1);
    c.type = campaigns.text(i, 2);
    c.status = campaigns.text(i, 3);
    c.leads_count = campaigns.int64(i, 4);
    c.web_widget_enabled = campaigns.boolean(i, 5);
    c.calls_count = campaigns.int64(i, 6);
    c.evaluations = {campaigns.int64(i, 7), campaigns.int64(i, 8), campaigns.int64(i, 9)};
  }
  std::vector<int64_t> ids;
  for (const auto& c : out)
    ids.push_back(c.id);
  auto stats = read_lead_counts(sql, k.tenant_id, ids);
  for (auto& c : out) {
    c.answered_leads = stats[c.id].answered;
  }
  return out;
}

std::vector<domain::client_submission> read_submissions(soci::session& sql, const scope& k,
                                                        int64_t client_id) {
  std::vector<domain::client_submission> out;
  auto rows = execute(sql, submissions_stmt, {k.tenant_id, k.client_id});
  for (int i = 0; i < rows.size(); ++i) {
    auto& s = out.emplace_back();
    s.submission.id = rows.int64(i, 0);
    s.submission.form_id = rows.int64(i, 1);
    s.form_title = rows.text(i, 2);
    s.submission.response_data_json = rows.text(i, 3);
    s.submission.is_test = rows.boolean(i, 4);
    s.submission.client_id = client_id;
    s.submission.created_at = rows.timestamp(i, 5);
    s.submission.updated_at = rows.timestamp(i, 6);
  }
  return out;
}

} // namespace

std::optional<domain::client_detail> read_client_detail(soci::session& sql, int64_t tenant_id,
                                                        int64_t client_id) {
  scope k{tenant_id, client_id};
  auto rows = execute(sql, client_stmt, {k.tenant_id, k.client_id});
  if (rows.size() == 0)
    return std::nullopt;
  domain::client_detail d;
  auto& c = d.record;
  c.id = rows.int64(0, 0);
  c.name = rows.text(0, 1);
  c.primary_email = rows.text(0, 2);
  c.created_at = rows.timestamp(0, 3);
  auto users = execute(sql, users_stmt, {k.tenant_id, k.client_id});
  for (int i = 0; i < users.size(); ++i)
    c.users.push_back({users.int64(i, 0), std::string{users.text(i, 1)}});
  auto configurations = execute(sql, configurations_stmt, {k.tenant_id, k.client_id});
  for (int i = 0; i < configurations.size(); ++i)
    d.configurations.push_back({configurations.int64(i, 0), std::string{configurations.text(i, 1)},
                                configurations.opt_int64(i, 2)});
  auto access = execute(sql, access_stmt, {k.tenant_id, k.client_id});
  for (int i = 0; i < access.size(); ++i)
    d.access.emplace_back(access.text(i, 0), access.text(i, 1));
  d.subscription = read_subscription(sql, k);
  d.campaigns = read_campaigns(sql, k);
  d.submissions = read_submissions(sql, k, client_id);
  return d;
}

std::optional<domain::subscription_view>
read_client_subscription(soci::session& sql, int64_t tenant_id, int64_t client_id) {
  return read_subscription(sql, {tenant_id, client_id});
}

} // namespace vcs::storage
