#include "storage/client_repository.hpp"

#include "domain/api_key.hpp"
#include "domain/global_id.hpp"
#include "storage/product_repository.hpp"
#include "storage/storage_error.hpp"
#include "storage/voice_provider_repository.hpp"

#include "storage/nullable.hpp"

#include <soci/soci.h>

#include <stdexcept>
#include <unordered_map>

namespace vcs::storage {

namespace {

constexpr const char* list_clients_sql =
    "SELECT id, name, primary_email, created_at FROM clients WHERE tenant_id = :t "
    "ORDER BY created_at DESC, id DESC";

constexpr const char* list_users_sql =
    "SELECT client_id, id, email FROM client_users WHERE tenant_id = :t ORDER BY client_id, id";

} // namespace

std::vector<domain::client> list_clients(soci::session& sql, int64_t tenant_id) {
  std::vector<domain::client> clients;
  std::unordered_map<int64_t, std::size_t> index;
  {
    domain::client c;
    std::string created_at;
    soci::statement st = (sql.prepare << list_clients_sql, soci::use(tenant_id), soci::into(c.id),
                          soci::into(c.name), soci::into(c.primary_email), soci::into(created_at));
    st.execute();
    while (st.fetch()) {
      c.created_at = timestamp_column(created_at);
      index.emplace(c.id, clients.size());
      clients.push_back(c);
    }
  }
  int64_t client_id = 0;
  domain::client_user u;
  soci::statement st = (sql.prepare << list_users_sql, soci::use(tenant_id), soci::into(client_id),
                        soci::into(u.id), soci::into(u.email));
  st.execute();
  while (st.fetch()) {
    if (auto it = index.find(client_id); it != index.end())
      clients[it->second].users.push_back(u);
  }
  return clients;
}

namespace {

constexpr const char* taken_emails_sql =
    "SELECT count(*) FROM client_users WHERE tenant_id = :t AND lower(email) = lower(:e)";
constexpr const char* campaign_exists_sql =
    "SELECT count(*) FROM campaigns WHERE tenant_id = :t AND id = :c";
constexpr const char* insert_client_sql =
    "INSERT INTO clients (tenant_id, name, primary_email) VALUES (:t, :n, :e) "
    "RETURNING id, created_at";
constexpr const char* insert_user_sql =
    "INSERT INTO client_users (tenant_id, client_id, email, password_hash) "
    "VALUES (:t, :c, :e, :h) RETURNING id";
constexpr const char* insert_config_sql =
    "INSERT INTO account_configurations (tenant_id, client_id, name, voice_provider_id) "
    "VALUES (:t, :c, :n, :vp) RETURNING id";
constexpr const char* insert_access_sql =
    "INSERT INTO client_access (tenant_id, client_id, resource_kind, access_level) "
    "VALUES (:t, :c, :k, :l)";
constexpr const char* insert_assignment_sql =
    "INSERT INTO assigned_resources (tenant_id, account_configuration_id, resource_kind, "
    "resource_id, position) VALUES (:t, :a, :k, :r, :p)";
// The first period runs one interval of the subscription's recurring price
// (a month when it has none); a product trial starts with it.
constexpr const char* insert_subscription_sql =
    "INSERT INTO subscriptions (tenant_id, client_id, product_id, processor_id, status, "
    "current_period_start, current_period_end, billing_cycle_anchor, trial_start, trial_end, "
    "trial_minutes) VALUES (:t, :c, :p, :proc, 'active', now(), now() + ('1 ' || :iv)::interval, "
    "now(), CASE WHEN :td > 0 THEN now() END, CASE WHEN :td2 > 0 THEN now() + make_interval(days "
    "=> :td3) END, :tm::numeric) RETURNING id";
constexpr const char* insert_subscription_price_sql =
    "INSERT INTO subscription_prices (subscription_id, price_id) VALUES (:s, :p)";
constexpr const char* insert_usage_sql =
    "INSERT INTO usage_balances (subscription_id, tenant_id, client_id, minutes_included_limit, "
    "current_period_start, current_period_end) SELECT id, tenant_id, client_id, :lim::numeric, "
    "current_period_start, current_period_end FROM subscriptions WHERE id = :s";

domain::error validation(domain::field_errors errors) {
  return domain::error{domain::errc::bad_request, "Validation error"}.with_field_errors(
      std::move(errors));
}

// Everything the request references must be the tenant's; all problems are
// reported together.
std::optional<domain::product> check_references(soci::session& sql, int64_t tenant_id,
                                                const domain::client_create& req) {
  domain::field_errors errors;
  for (std::size_t i = 0; i < req.users.size(); ++i) {
    long long taken = 0;
    sql << taken_emails_sql, soci::use(tenant_id), soci::use(req.users[i].email), soci::into(taken);
    if (taken > 0)
      errors.add("client_users[" + std::to_string(i) + "].email",
                 "A user with this e-mail already exists.");
  }
  if (req.voice_provider_id && !voice_provider_exists(sql, tenant_id, *req.voice_provider_id))
    errors.add("client_asset_group.tenant_voice_provider_id",
               "Tenant voice provider not found: " + req.voice_provider_ref);
  std::optional<domain::product> product;
  if (req.product_id) {
    product = find_product(sql, tenant_id, *req.product_id);
    if (!product) {
      errors.add("billing_provider.selected_product.product_id",
                 "No product " + *req.product_id + " in the catalog.");
    } else {
      for (const auto& wanted : req.price_ids) {
        bool found = false;
        for (const auto& p : product->prices)
          found = found || p.processor_price_id == wanted;
        if (!found)
          errors.add("billing_provider.selected_product.price_ids",
                     "Price " + wanted + " is not a price of product " + *req.product_id + ".");
      }
    }
  }
  for (auto id : req.campaign_ids) {
    long long n = 0;
    sql << campaign_exists_sql, soci::use(tenant_id), soci::use(id), soci::into(n);
    if (n == 0)
      errors.add("assigned_resources.campaign",
                 "Campaign not found: " + domain::encode_global_id(domain::entity::campaign, id));
  }
  if (!errors.empty())
    throw failure(validation(std::move(errors)));
  return product;
}

void start_subscription(soci::session& sql, int64_t tenant_id, int64_t client_id,
                        const domain::product& product, const std::vector<std::string>& price_ids) {
  std::string interval = "month";
  for (const auto& p : product.prices)
    for (const auto& wanted : price_ids)
      if (p.processor_price_id == wanted && p.interval)
        interval = *p.interval;
  auto processor_id = "sub_" + domain::random_hex_32().substr(0, 24);
  int64_t subscription_id = 0;
  sql << insert_subscription_sql, soci::use(tenant_id), soci::use(client_id), soci::use(product.id),
      soci::use(processor_id), soci::use(interval), soci::use(product.trial_days),
      soci::use(product.trial_days), soci::use(product.trial_days),
      soci::use(product.trial_minutes), soci::into(subscription_id);
  for (const auto& p : product.prices)
    for (const auto& wanted : price_ids)
      if (p.processor_price_id == wanted)
        sql << insert_subscription_price_sql, soci::use(subscription_id), soci::use(p.id);
  sql << insert_usage_sql, soci::use(product.min_minutes_included), soci::use(subscription_id);
}

} // namespace

domain::created_client create_client(soci::session& sql, int64_t tenant_id,
                                     const domain::client_create& req) {
  auto product = check_references(sql, tenant_id, req);
  domain::created_client out;
  auto& c = out.record;
  c.name = req.name;
  c.primary_email = req.primary_email;
  std::string created;
  sql << insert_client_sql, soci::use(tenant_id), soci::use(req.name), soci::use(req.primary_email),
      soci::into(c.id), soci::into(created);
  c.created_at = timestamp_column(created);
  for (std::size_t i = 0; i < req.users.size(); ++i) {
    domain::client_user u{0, req.users[i].email};
    try {
      sql << insert_user_sql, soci::use(tenant_id), soci::use(c.id), soci::use(u.email),
          soci::use(req.users[i].password_hash), soci::into(u.id);
    } catch (const std::exception& e) {
      if (!is_unique_violation(e))
        throw;
      // Another request took the address after the check above.
      domain::field_errors errors;
      errors.add("client_users[" + std::to_string(i) + "].email",
                 "A user with this e-mail already exists.");
      throw failure(validation(std::move(errors)));
    }
    c.users.push_back(u);
  }
  nullable<int64_t> vp{req.voice_provider_id};
  sql << insert_config_sql, soci::use(tenant_id), soci::use(c.id), soci::use(req.asset_group_name),
      soci::use(vp.value, vp.ind), soci::into(out.asset_group_id);
  for (const auto& [kind, level] : req.access)
    sql << insert_access_sql, soci::use(tenant_id), soci::use(c.id), soci::use(kind),
        soci::use(level);
  for (const auto& [kind, ids] : req.assigned)
    for (std::size_t i = 0; i < ids.size(); ++i) {
      int position = static_cast<int>(i);
      sql << insert_assignment_sql, soci::use(tenant_id), soci::use(out.asset_group_id),
          soci::use(kind), soci::use(ids[i]), soci::use(position);
    }
  if (product)
    start_subscription(sql, tenant_id, c.id, *product, req.price_ids);
  return out;
}

} // namespace vcs::storage
