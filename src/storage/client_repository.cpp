#include "storage/client_repository.hpp"

#include "domain/api_key.hpp"
#include "domain/global_id.hpp"
#include "storage/assignment_repository.hpp"
#include "storage/prepared.hpp"
#include "storage/product_repository.hpp"
#include "storage/storage_error.hpp"
#include "storage/voice_provider_repository.hpp"

#include <stdexcept>
#include <unordered_map>

namespace vcs::storage {

namespace {

// Both along clients_tenant_created_idx, the cursor in the index condition
// (a generic plan of an optional cursor filtered every row before it).
constexpr prepared_statement clients_after_stmt{
    "vcs_clients_after",
    "SELECT id, name, primary_email, created_at FROM clients WHERE tenant_id = $1 "
    "AND (created_at, id) < ($2::timestamptz, $3::bigint) "
    "ORDER BY created_at DESC, id DESC LIMIT $4::bigint"};
constexpr prepared_statement page_clients_stmt{
    "vcs_page_clients", "SELECT id, name, primary_email, created_at FROM clients "
                        "WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC "
                        "LIMIT $2::bigint OFFSET $3::bigint"};
constexpr prepared_statement count_clients_stmt{
    "vcs_count_clients", "SELECT count(*) FROM clients WHERE tenant_id = $1"};

// One probe of client_users_client_idx per client: with `client_id =
// ANY(...)` a generic plan read every user of the tenant and searched the
// array for each (35 ms a batch of 500 among 10,000).
constexpr prepared_statement list_users_stmt{
    "vcs_list_client_users", "SELECT u.client_id, u.id, u.email FROM unnest($2::bigint[]) AS c(id) "
                             "JOIN client_users u ON u.client_id = c.id WHERE u.tenant_id = $1 "
                             "ORDER BY u.client_id, u.id"};

// The clients of `client_rows` (id, name, primary_email, created_at) with
// their users.
std::vector<domain::client> with_users(soci::session& sql, int64_t tenant_id,
                                       const pg_rows& client_rows) {
  std::vector<domain::client> clients;
  std::unordered_map<int64_t, std::size_t> index;
  clients.reserve(static_cast<std::size_t>(client_rows.size()));
  for (int i = 0; i < client_rows.size(); ++i) {
    domain::client& c = clients.emplace_back();
    c.id = client_rows.int64(i, 0);
    c.name = client_rows.text(i, 1);
    c.primary_email = client_rows.text(i, 2);
    c.created_at = client_rows.timestamp(i, 3);
    index.emplace(c.id, clients.size() - 1);
  }
  if (clients.empty())
    return clients;
  std::vector<int64_t> ids;
  ids.reserve(clients.size());
  for (const auto& c : clients)
    ids.push_back(c.id);
  auto user_rows = execute(sql, list_users_stmt, {tenant_id, ids});
  for (int i = 0; i < user_rows.size(); ++i) {
    if (auto it = index.find(user_rows.int64(i, 0)); it != index.end())
      clients[it->second].users.push_back(
          domain::client_user{user_rows.int64(i, 1), std::string{user_rows.text(i, 2)}});
  }
  return clients;
}

} // namespace

std::vector<domain::client> list_clients(soci::session& sql, int64_t tenant_id,
                                         const std::optional<newest_first_cursor>& after,
                                         int64_t limit) {
  return with_users(
      sql, tenant_id,
      after ? execute(sql, clients_after_stmt, {tenant_id, after->created_at, after->id, limit})
            : execute(sql, page_clients_stmt, {tenant_id, limit, int64_t{0}}));
}

page_of<domain::client> page_of_clients(soci::session& sql, int64_t tenant_id,
                                        const page_request& page) {
  page_of<domain::client> out;
  out.total = execute(sql, count_clients_stmt, {tenant_id}).int64(0, 0);
  out.items =
      with_users(sql, tenant_id,
                 execute(sql, page_clients_stmt, {tenant_id, page.page_size, offset_of(page)}));
  return out;
}

namespace {

// The users' e-mails (one-based, in the order given) the tenant already has.
constexpr prepared_statement taken_emails_stmt{
    "vcs_client_emails_taken",
    "SELECT i.ord FROM unnest($2::text[]) WITH ORDINALITY AS i(email, ord) "
    "WHERE EXISTS (SELECT 1 FROM client_users u "
    "WHERE u.tenant_id = $1 AND lower(u.email) = lower(i.email)) ORDER BY i.ord"};
constexpr prepared_statement insert_client_stmt{
    "vcs_insert_client", "INSERT INTO clients (tenant_id, name, primary_email) VALUES ($1, $2, $3) "
                         "RETURNING id, created_at"};
// Every user in one statement; a user whose e-mail is taken (by another
// request since the check, or earlier in this one) is not inserted.
constexpr prepared_statement insert_users_stmt{
    "vcs_insert_client_users",
    "INSERT INTO client_users (tenant_id, client_id, email, password_hash) "
    "SELECT $1, $2, i.email, i.hash FROM unnest($3::text[], $4::text[]) WITH ORDINALITY "
    "AS i(email, hash, ord) ORDER BY i.ord ON CONFLICT DO NOTHING RETURNING id, email"};
constexpr prepared_statement insert_config_stmt{
    "vcs_insert_account_configuration",
    "INSERT INTO account_configurations (tenant_id, client_id, name, voice_provider_id) "
    "VALUES ($1, $2, $3, $4) RETURNING id"};
constexpr prepared_statement insert_access_stmt{
    "vcs_insert_client_access",
    "INSERT INTO client_access (tenant_id, client_id, resource_kind, access_level) "
    "VALUES ($1, $2, $3, $4)"};
// The first period runs one interval of the subscription's recurring price
// (a month when it has none); a product trial starts with it.
constexpr prepared_statement insert_subscription_stmt{
    "vcs_insert_client_subscription",
    "INSERT INTO subscriptions (tenant_id, client_id, product_id, processor_id, status, "
    "current_period_start, current_period_end, billing_cycle_anchor, trial_start, trial_end, "
    "trial_minutes) VALUES ($1, $2, $3, $4, 'active', now(), now() + ('1 ' || $5)::interval, "
    "now(), CASE WHEN $6 > 0 THEN now() END, CASE WHEN $6 > 0 THEN now() + "
    "make_interval(days => $6) END, $7::numeric) RETURNING id"};
constexpr prepared_statement insert_subscription_price_stmt{
    "vcs_insert_client_subscription_price",
    "INSERT INTO subscription_prices (subscription_id, price_id) VALUES ($1, $2)"};
constexpr prepared_statement insert_usage_stmt{
    "vcs_insert_client_usage_balance",
    "INSERT INTO usage_balances (subscription_id, tenant_id, client_id, minutes_included_limit, "
    "current_period_start, current_period_end) SELECT id, tenant_id, client_id, $2::numeric, "
    "current_period_start, current_period_end FROM subscriptions WHERE id = $1"};

// The spec's error for the index-th user, whose e-mail the tenant has.
void add_email_taken(domain::field_errors& errors, std::size_t index) {
  errors.add("client_users[" + std::to_string(index) + "].email",
             "A user with this e-mail already exists.");
}

domain::error validation(domain::field_errors errors) {
  return domain::error{domain::errc::bad_request, "Validation error"}.with_field_errors(
      std::move(errors));
}

// Everything the request references must be the tenant's; all problems are
// reported together.
domain::result<std::optional<domain::product>>
check_references(soci::session& sql, int64_t tenant_id, const domain::client_create& req,
                 const std::vector<std::string>& emails) {
  domain::field_errors errors;
  if (!emails.empty()) {
    auto taken = execute(sql, taken_emails_stmt, {tenant_id, emails});
    for (int r = 0; r < taken.size(); ++r)
      add_email_taken(errors, static_cast<std::size_t>(taken.int64(r, 0) - 1));
  }
  if (req.voice_provider_id && !hold_voice_provider(sql, tenant_id, *req.voice_provider_id))
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
  check_campaigns(sql, tenant_id, req.campaign_ids, errors);
  if (!errors.empty())
    return validation(std::move(errors));
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
  const int64_t subscription_id = execute(sql, insert_subscription_stmt,
                                          {tenant_id, client_id, product.id, processor_id, interval,
                                           product.trial_days, product.trial_minutes})
                                      .int64(0, 0);
  for (const auto& p : product.prices)
    for (const auto& wanted : price_ids)
      if (p.processor_price_id == wanted)
        execute(sql, insert_subscription_price_stmt, {subscription_id, p.id});
  execute(sql, insert_usage_stmt, {subscription_id, product.min_minutes_included});
}

} // namespace

std::optional<domain::error> check_client_create(soci::session& sql, int64_t tenant_id,
                                                 const domain::client_create& req) {
  std::vector<std::string> emails;
  for (const auto& u : req.users)
    emails.push_back(u.email);
  auto checked = check_references(sql, tenant_id, req, emails);
  if (!checked)
    return std::move(checked).err();
  return std::nullopt;
}

domain::result<domain::created_client> create_client(soci::session& sql, int64_t tenant_id,
                                                     const domain::client_create& req) {
  std::vector<std::string> emails;
  std::vector<std::string> hashes;
  for (const auto& u : req.users) {
    emails.push_back(u.email);
    hashes.push_back(u.password_hash);
  }
  auto checked = check_references(sql, tenant_id, req, emails);
  if (!checked)
    return std::move(checked).err();
  const auto& product = *checked;
  domain::created_client out;
  auto& c = out.record;
  c.name = req.name;
  c.primary_email = req.primary_email;
  {
    auto rows = execute(sql, insert_client_stmt, {tenant_id, req.name, req.primary_email});
    c.id = rows.int64(0, 0);
    c.created_at = rows.timestamp(0, 1);
  }
  if (!emails.empty()) {
    auto added = execute(sql, insert_users_stmt, {tenant_id, c.id, emails, hashes});
    // Each inserted row answers the first user sent with its e-mail.
    std::unordered_multimap<std::string_view, int64_t> ids;
    for (int r = 0; r < added.size(); ++r)
      ids.emplace(added.text(r, 1), added.int64(r, 0));
    for (std::size_t i = 0; i < req.users.size(); ++i) {
      auto found = ids.find(req.users[i].email);
      if (found == ids.end()) {
        // Another request took the address after the check above.
        domain::field_errors errors;
        add_email_taken(errors, i);
        return validation(std::move(errors));
      }
      c.users.push_back(domain::client_user{found->second, req.users[i].email});
      ids.erase(found);
    }
  }
  out.asset_group_id = execute(sql, insert_config_stmt,
                               {tenant_id, c.id, req.asset_group_name, req.voice_provider_id})
                           .int64(0, 0);
  for (const auto& [kind, level] : req.access)
    execute(sql, insert_access_stmt, {tenant_id, c.id, kind, level});
  insert_assignments(sql, tenant_id, out.asset_group_id, req.assigned);
  if (product)
    start_subscription(sql, tenant_id, c.id, *product, req.price_ids);
  return out;
}

} // namespace vcs::storage
