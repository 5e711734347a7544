#include "storage/billing_repository.hpp"

#include "storage/page_rows.hpp"
#include "storage/prepared.hpp"
#include "storage/usage_row.hpp"

#include <stdexcept>

namespace vcs::storage {

namespace {

// Every billing list is newest first and answers one page and the total of
// the same FROM/WHERE with the same filters. A NULL filter matches
// everything.

#define VCS_PAYMENT_COLUMNS                                                                        \
  "pr.id, pr.client_id, c.name, pr.subscription_id, pr.status, pr.type, pr.amount, pr.currency, "  \
  "pr.due_date, pr.grace_period_ends_at, pr.paid_at, pr.external_payment_id, pr.notes, "           \
  "pr.line_items, pr.period_start, pr.period_end, pr.created_at, pr.updated_at"
#define VCS_PAYMENT_FROM                                                                           \
  " FROM payment_requests pr JOIN clients c ON c.tenant_id = pr.tenant_id AND c.id = "             \
  "pr.client_id "
// Of every client, or of one ($4): a statement each, so that a client's
// list reads that client's index range (a generic plan of `($4 IS NULL OR
// client_id = $4)` reads every request of the tenant).
#define VCS_PAYMENT_WHERE                                                                          \
  "WHERE pr.tenant_id = $1 AND ($2::text IS NULL OR pr.status = $2) "                              \
  "AND ($3::text IS NULL OR pr.type = $3) "
#define VCS_CLIENT_PAYMENT_WHERE VCS_PAYMENT_WHERE "AND pr.client_id = $4 "

namespace payment_col {
enum : int {
  id,
  client_id,
  client_name,
  subscription_id,
  status,
  type,
  amount,
  currency,
  due_date,
  grace_period_ends_at,
  paid_at,
  external_payment_id,
  notes,
  line_items,
  period_start,
  period_end,
  created_at,
  updated_at
};
}

constexpr prepared_statement unpaid_stmt{
    "vcs_client_has_unpaid",
    "SELECT EXISTS (SELECT 1 FROM payment_requests WHERE tenant_id = $1 AND client_id = $2 "
    "AND status IN ('PENDING', 'FAILED', 'OVERDUE'))"};
// Counted without the client's row: the reference (tenant_id, client_id)
// guarantees it, and joining it cost a lookup per counted request.
constexpr prepared_statement count_payments_stmt{
    "vcs_count_payment_requests", "SELECT count(*) FROM payment_requests pr " VCS_PAYMENT_WHERE};
constexpr prepared_statement list_payments_stmt{
    "vcs_list_payment_requests", "SELECT " VCS_PAYMENT_COLUMNS VCS_PAYMENT_FROM VCS_PAYMENT_WHERE
                                 "ORDER BY pr.created_at DESC, pr.id DESC LIMIT $4 OFFSET $5"};
constexpr prepared_statement count_client_payments_stmt{
    "vcs_count_client_payment_requests",
    "SELECT count(*) FROM payment_requests pr " VCS_CLIENT_PAYMENT_WHERE};
constexpr prepared_statement list_client_payments_stmt{
    "vcs_list_client_payment_requests",
    "SELECT " VCS_PAYMENT_COLUMNS VCS_PAYMENT_FROM VCS_CLIENT_PAYMENT_WHERE
    "ORDER BY pr.created_at DESC, pr.id DESC LIMIT $5 OFFSET $6"};

// Every payment update reads its request before and after.
constexpr prepared_statement find_payment_stmt{"vcs_find_payment",
                                               "SELECT " VCS_PAYMENT_COLUMNS VCS_PAYMENT_FROM
                                               "WHERE pr.tenant_id = $1 AND pr.id = $2"};

constexpr prepared_statement insert_payment_stmt{
    "vcs_insert_payment_request",
    "INSERT INTO payment_requests (tenant_id, client_id, subscription_id, type, amount, currency, "
    "due_date, grace_period_ends_at, period_start, period_end, line_items, notes) VALUES ($1, $2, "
    "$3, $4, $5::numeric, upper($6), $7::timestamptz, $8::timestamptz, $9::timestamptz, "
    "$10::timestamptz, $11::jsonb, $12) RETURNING id"};

#undef VCS_PAYMENT_COLUMNS
#undef VCS_PAYMENT_FROM
#undef VCS_CLIENT_PAYMENT_WHERE
#undef VCS_PAYMENT_WHERE

#define VCS_SUBSCRIPTION_COLUMNS                                                                   \
  "s.id, s.client_id, c.name, p.processor_product_id, p.name, s.status, s.current_period_start, "  \
  "s.current_period_end, s.created_at, s.updated_at"
#define VCS_SUBSCRIPTION_FROM                                                                      \
  " FROM subscriptions s JOIN clients c ON c.tenant_id = s.tenant_id AND c.id = s.client_id "      \
  "JOIN products p ON p.tenant_id = s.tenant_id AND p.id = s.product_id "
#define VCS_SUBSCRIPTION_WHERE                                                                     \
  "WHERE s.tenant_id = $1 AND ($2::bigint IS NULL OR s.client_id = $2) "                           \
  "AND ($3::text IS NULL OR s.status = $3) "

namespace subscription_col {
enum : int {
  id,
  client_id,
  client_name,
  product_id,
  product_name,
  status,
  current_period_start,
  current_period_end,
  created_at,
  updated_at
};
}

constexpr prepared_statement count_subscriptions_stmt{
    "vcs_count_subscriptions", "SELECT count(*)" VCS_SUBSCRIPTION_FROM VCS_SUBSCRIPTION_WHERE};
constexpr prepared_statement list_subscriptions_stmt{
    "vcs_list_subscriptions",
    "SELECT " VCS_SUBSCRIPTION_COLUMNS VCS_SUBSCRIPTION_FROM VCS_SUBSCRIPTION_WHERE
    "ORDER BY s.created_at DESC, s.id DESC LIMIT $4 OFFSET $5"};
constexpr prepared_statement find_subscription_stmt{
    "vcs_find_subscription", "SELECT " VCS_SUBSCRIPTION_COLUMNS VCS_SUBSCRIPTION_FROM
                             "WHERE s.tenant_id = $1 AND s.id = $2"};

#undef VCS_SUBSCRIPTION_COLUMNS
#undef VCS_SUBSCRIPTION_FROM
#undef VCS_SUBSCRIPTION_WHERE

constexpr prepared_statement subscription_of_client_stmt{
    "vcs_subscription_of_client",
    "SELECT count(*) FROM subscriptions WHERE tenant_id = $1 AND client_id = $2 AND id = $3"};

#define VCS_USAGE_FROM                                                                             \
  " FROM usage_balances u JOIN clients c ON c.tenant_id = u.tenant_id AND c.id = u.client_id "     \
  "WHERE u.tenant_id = $1 AND ($2::bigint IS NULL OR u.client_id = $2) "

constexpr prepared_statement count_usage_stmt{"vcs_count_usage", "SELECT count(*)" VCS_USAGE_FROM};
constexpr prepared_statement list_usage_stmt{
    "vcs_list_usage", "SELECT " VCS_USAGE_COLUMNS VCS_USAGE_FROM
                      "ORDER BY u.updated_at DESC, u.subscription_id DESC LIMIT $3 OFFSET $4"};

#undef VCS_USAGE_FROM

constexpr prepared_statement tenant_of_client_stmt{"vcs_tenant_of_client",
                                                   "SELECT tenant_id FROM clients WHERE id = $1"};

domain::payment_request payment_of(const pg_rows& rows, int i) {
  domain::payment_request p;
  p.id = rows.int64(i, payment_col::id);
  p.client_id = rows.int64(i, payment_col::client_id);
  p.client_name = rows.text(i, payment_col::client_name);
  p.subscription_id = rows.opt_int64(i, payment_col::subscription_id);
  p.status = rows.text(i, payment_col::status);
  p.type = rows.text(i, payment_col::type);
  p.amount = rows.text(i, payment_col::amount);
  p.currency = rows.text(i, payment_col::currency);
  p.due_date = rows.timestamp(i, payment_col::due_date);
  p.grace_period_ends_at = rows.opt_timestamp(i, payment_col::grace_period_ends_at);
  p.paid_at = rows.opt_timestamp(i, payment_col::paid_at);
  p.external_payment_id = rows.opt_text(i, payment_col::external_payment_id);
  p.notes = rows.opt_text(i, payment_col::notes);
  p.line_items_json = rows.text(i, payment_col::line_items);
  p.period_start = rows.timestamp(i, payment_col::period_start);
  p.period_end = rows.timestamp(i, payment_col::period_end);
  p.created_at = rows.timestamp(i, payment_col::created_at);
  p.updated_at = rows.timestamp(i, payment_col::updated_at);
  return p;
}

domain::subscription_record subscription_of(const pg_rows& rows, int i) {
  domain::subscription_record s;
  s.id = rows.int64(i, subscription_col::id);
  s.client_id = rows.int64(i, subscription_col::client_id);
  s.client_name = rows.text(i, subscription_col::client_name);
  s.product_id = rows.text(i, subscription_col::product_id);
  s.product_name = rows.text(i, subscription_col::product_name);
  s.status = rows.text(i, subscription_col::status);
  s.current_period_start = rows.timestamp(i, subscription_col::current_period_start);
  s.current_period_end = rows.timestamp(i, subscription_col::current_period_end);
  s.created_at = rows.timestamp(i, subscription_col::created_at);
  s.updated_at = rows.timestamp(i, subscription_col::updated_at);
  return s;
}

} // namespace

page_of<domain::payment_request> list_payment_requests(soci::session& sql, int64_t tenant_id,
                                                       const payment_filter& filter,
                                                       const page_request& page) {
  if (filter.client_id) {
    auto total = execute(sql, count_client_payments_stmt,
                         {tenant_id, filter.status, filter.type, *filter.client_id});
    auto rows = execute(sql, list_client_payments_stmt,
                        {tenant_id, filter.status, filter.type, *filter.client_id, page.page_size,
                         offset_of(page)});
    return page_from(total, rows, payment_of);
  }
  auto total = execute(sql, count_payments_stmt, {tenant_id, filter.status, filter.type});
  auto rows = execute(sql, list_payments_stmt,
                      {tenant_id, filter.status, filter.type, page.page_size, offset_of(page)});
  return page_from(total, rows, payment_of);
}

std::optional<domain::payment_request> find_payment_request(soci::session& sql, int64_t tenant_id,
                                                            int64_t id) {
  auto rows = execute(sql, find_payment_stmt, {tenant_id, id});
  if (rows.size() == 0)
    return std::nullopt;
  return payment_of(rows, 0);
}

domain::payment_request insert_payment_request(soci::session& sql, int64_t tenant_id,
                                               const domain::payment_request& p) {
  auto id =
      execute(sql, insert_payment_stmt,
              {tenant_id, p.client_id, p.subscription_id, p.type, p.amount, p.currency, p.due_date,
               p.grace_period_ends_at, p.period_start, p.period_end, p.line_items_json, p.notes})
          .int64(0, 0);
  auto stored = find_payment_request(sql, tenant_id, id);
  if (!stored)
    throw std::runtime_error("payment request vanished after insert");
  return *stored;
}

page_of<domain::subscription_record> list_subscriptions(soci::session& sql, int64_t tenant_id,
                                                        const subscription_filter& filter,
                                                        const page_request& page) {
  auto total = execute(sql, count_subscriptions_stmt, {tenant_id, filter.client_id, filter.status});
  auto rows =
      execute(sql, list_subscriptions_stmt,
              {tenant_id, filter.client_id, filter.status, page.page_size, offset_of(page)});
  return page_from(total, rows, subscription_of);
}

std::optional<domain::subscription_record> find_subscription(soci::session& sql, int64_t tenant_id,
                                                             int64_t id) {
  auto rows = execute(sql, find_subscription_stmt, {tenant_id, id});
  if (rows.size() == 0)
    return std::nullopt;
  return subscription_of(rows, 0);
}

bool subscription_of_client(soci::session& sql, int64_t tenant_id, int64_t client_id,
                            int64_t subscription_id) {
  return execute(sql, subscription_of_client_stmt, {tenant_id, client_id, subscription_id})
             .int64(0, 0) > 0;
}

page_of<domain::usage_record> list_usage(soci::session& sql, int64_t tenant_id,
                                         std::optional<int64_t> client_id,
                                         const page_request& page) {
  auto total = execute(sql, count_usage_stmt, {tenant_id, client_id});
  auto rows =
      execute(sql, list_usage_stmt, {tenant_id, client_id, page.page_size, offset_of(page)});
  return page_from(total, rows, usage_row);
}

std::optional<int64_t> tenant_of_client(soci::session& sql, int64_t client_id) {
  auto rows = execute(sql, tenant_of_client_stmt, {client_id});
  if (rows.size() == 0)
    return std::nullopt;
  return rows.int64(0, 0);
}

bool has_unpaid_payment_requests(soci::session& sql, int64_t tenant_id, int64_t client_id) {
  return execute(sql, unpaid_stmt, {tenant_id, client_id}).boolean(0, 0);
}

} // namespace vcs::storage
