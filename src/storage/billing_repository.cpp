#include "storage/billing_repository.hpp"

#include "storage/nullable.hpp"
#include "storage/prepared.hpp"

#include <soci/soci.h>

#include <stdexcept>

namespace vcs::storage {

namespace {

constexpr const char* payment_columns =
    "pr.id, pr.client_id, c.name, pr.subscription_id, pr.status, pr.type, pr.amount, pr.currency, "
    "pr.due_date, pr.grace_period_ends_at, pr.paid_at, pr.external_payment_id, pr.notes, "
    "pr.line_items, pr.period_start, pr.period_end, pr.created_at, pr.updated_at";
constexpr const char* payment_from = " FROM payment_requests pr JOIN clients c ON c.tenant_id = "
                                     "pr.tenant_id AND c.id = pr.client_id ";
// A NULL filter matches everything.
constexpr const char* payment_where =
    "WHERE pr.tenant_id = :t AND (:c::bigint IS NULL OR pr.client_id = :c2) "
    "AND (:s::text IS NULL OR pr.status = :s2) AND (:ty::text IS NULL OR pr.type = :ty2) ";
constexpr const char* newest_first = "ORDER BY pr.created_at DESC, pr.id DESC";

// The same columns for one request, prepared once per connection: every
// payment update reads its request before and after.
constexpr prepared_statement find_payment_stmt{
    "vcs_find_payment",
    "SELECT pr.id, pr.client_id, c.name, pr.subscription_id, pr.status, pr.type, pr.amount, "
    "pr.currency, pr.due_date, pr.grace_period_ends_at, pr.paid_at, pr.external_payment_id, "
    "pr.notes, pr.line_items, pr.period_start, pr.period_end, pr.created_at, pr.updated_at "
    "FROM payment_requests pr JOIN clients c ON c.tenant_id = pr.tenant_id AND c.id = "
    "pr.client_id WHERE pr.tenant_id = $1 AND pr.id = $2"};

constexpr const char* subscription_columns =
    "s.id, s.client_id, c.name, p.processor_product_id, p.name, s.status, s.current_period_start, "
    "s.current_period_end, s.created_at, s.updated_at";
constexpr const char* subscription_from =
    " FROM subscriptions s JOIN clients c ON c.tenant_id = s.tenant_id AND c.id = s.client_id "
    "JOIN products p ON p.tenant_id = s.tenant_id AND p.id = s.product_id ";
constexpr const char* subscription_where =
    "WHERE s.tenant_id = :t AND (:c::bigint IS NULL OR s.client_id = :c2) "
    "AND (:s::text IS NULL OR s.status = :s2) ";

constexpr const char* usage_columns =
    "u.client_id, c.name, u.subscription_id, u.minutes_included_limit, u.minutes_included_used, "
    "u.minutes_addon_balance, u.minutes_billable_used, u.current_period_start, "
    "u.current_period_end, u.updated_at";
constexpr const char* usage_from =
    " FROM usage_balances u JOIN clients c ON c.tenant_id = u.tenant_id AND c.id = u.client_id ";
constexpr const char* usage_where =
    "WHERE u.tenant_id = :t AND (:c::bigint IS NULL OR u.client_id = :c2) ";

constexpr const char* insert_payment_sql =
    "INSERT INTO payment_requests (tenant_id, client_id, subscription_id, type, amount, currency, "
    "due_date, grace_period_ends_at, period_start, period_end, line_items, notes) VALUES (:t, :c, "
    ":s, :ty, :a::numeric, upper(:cur), :due::timestamptz, :grace::timestamptz, "
    ":ps::timestamptz, :pe::timestamptz, :li::jsonb, :n) RETURNING id";

// Output columns of `payment_columns`.
struct payment_row {
  domain::payment_request p;
  nullable<int64_t> sub;
  nullable_text grace, paid, ext, notes;
  std::string due, ps, pe, created, updated;

  void bind(soci::details::prepare_temp_type& st) {
    st, soci::into(p.id), soci::into(p.client_id), soci::into(p.client_name),
        soci::into(sub.value, sub.ind), soci::into(p.status), soci::into(p.type),
        soci::into(p.amount), soci::into(p.currency), soci::into(due),
        soci::into(grace.value, grace.ind), soci::into(paid.value, paid.ind),
        soci::into(ext.value, ext.ind), soci::into(notes.value, notes.ind),
        soci::into(p.line_items_json), soci::into(ps), soci::into(pe), soci::into(created),
        soci::into(updated);
  }

  domain::payment_request finish() {
    p.subscription_id = sub.get();
    p.due_date = timestamp_column(due);
    p.grace_period_ends_at = timestamp_column(grace);
    p.paid_at = timestamp_column(paid);
    p.external_payment_id = ext.get();
    p.notes = notes.get();
    p.period_start = timestamp_column(ps);
    p.period_end = timestamp_column(pe);
    p.created_at = timestamp_column(created);
    p.updated_at = timestamp_column(updated);
    return p;
  }
};

struct subscription_row {
  domain::subscription_record s;
  std::string start, end, created, updated;

  void bind(soci::details::prepare_temp_type& st) {
    st, soci::into(s.id), soci::into(s.client_id), soci::into(s.client_name),
        soci::into(s.product_id), soci::into(s.product_name), soci::into(s.status),
        soci::into(start), soci::into(end), soci::into(created), soci::into(updated);
  }

  domain::subscription_record finish() {
    s.current_period_start = timestamp_column(start);
    s.current_period_end = timestamp_column(end);
    s.created_at = timestamp_column(created);
    s.updated_at = timestamp_column(updated);
    return s;
  }
};

struct usage_row {
  domain::usage_record u;
  std::string start, end, updated;

  void bind(soci::details::prepare_temp_type& st) {
    st, soci::into(u.client_id), soci::into(u.client_name), soci::into(u.subscription_id),
        soci::into(u.minutes_included_limit), soci::into(u.minutes_included_used),
        soci::into(u.minutes_addon_balance), soci::into(u.minutes_billable_used), soci::into(start),
        soci::into(end), soci::into(updated);
  }

  domain::usage_record finish() {
    u.current_period_start = timestamp_column(start);
    u.current_period_end = timestamp_column(end);
    u.updated_at = timestamp_column(updated);
    return u;
  }
};

int64_t offset_of(const page_request& page) {
  return (page.page - 1) * page.page_size;
}

// One page of a billing list and its total: the count and the page run
// over the same FROM/WHERE with the same filter parameters (`bind`).
template <class Row, class Bind>
auto paged(soci::session& sql, const std::string& columns, const std::string& from_where,
           const std::string& order, Bind bind, const page_request& page) {
  page_of<decltype(std::declval<Row&>().finish())> out;
  {
    auto prep = (sql.prepare << "SELECT count(*)" + from_where);
    bind(prep);
    prep, soci::into(out.total);
    soci::statement st{prep};
    st.execute(true);
  }
  Row row;
  int64_t limit = page.page_size;
  int64_t offset = offset_of(page);
  auto prep = (sql.prepare << "SELECT " + columns + from_where + order + " LIMIT :l OFFSET :o");
  bind(prep);
  prep, soci::use(limit), soci::use(offset);
  row.bind(prep);
  soci::statement st{prep};
  st.execute();
  while (st.fetch())
    out.items.push_back(row.finish());
  return out;
}

} // namespace

page_of<domain::payment_request> list_payment_requests(soci::session& sql, int64_t tenant_id,
                                                       const payment_filter& filter,
                                                       const page_request& page) {
  nullable<int64_t> c{filter.client_id};
  nullable_text s{filter.status}, ty{filter.type};
  return paged<payment_row>(
      sql, payment_columns, std::string{payment_from} + payment_where, newest_first,
      [&](soci::details::prepare_temp_type& prep) {
        prep, soci::use(tenant_id), soci::use(c.value, c.ind), soci::use(c.value, c.ind),
            soci::use(s.value, s.ind), soci::use(s.value, s.ind), soci::use(ty.value, ty.ind),
            soci::use(ty.value, ty.ind);
      },
      page);
}

std::optional<domain::payment_request> find_payment_request(soci::session& sql, int64_t tenant_id,
                                                            int64_t id) {
  auto rows = execute(sql, find_payment_stmt, {tenant_id, id});
  if (rows.size() == 0)
    return std::nullopt;
  domain::payment_request p;
  p.id = rows.int64(0, 0);
  p.client_id = rows.int64(0, 1);
  p.client_name = rows.text(0, 2);
  if (!rows.is_null(0, 3))
    p.subscription_id = rows.int64(0, 3);
  p.status = rows.text(0, 4);
  p.type = rows.text(0, 5);
  p.amount = rows.text(0, 6);
  p.currency = rows.text(0, 7);
  p.due_date = rows.timestamp(0, 8);
  p.grace_period_ends_at = rows.opt_timestamp(0, 9);
  p.paid_at = rows.opt_timestamp(0, 10);
  p.external_payment_id = rows.opt_text(0, 11);
  p.notes = rows.opt_text(0, 12);
  p.line_items_json = rows.text(0, 13);
  p.period_start = rows.timestamp(0, 14);
  p.period_end = rows.timestamp(0, 15);
  p.created_at = rows.timestamp(0, 16);
  p.updated_at = rows.timestamp(0, 17);
  return p;
}

domain::payment_request insert_payment_request(soci::session& sql, int64_t tenant_id,
                                               const domain::payment_request& p) {
  nullable<int64_t> sub{p.subscription_id};
  nullable_text notes{p.notes};
  std::optional<std::string> grace_text;
  if (p.grace_period_ends_at)
    grace_text = domain::to_pg_timestamp(*p.grace_period_ends_at);
  nullable_text grace{grace_text};
  auto due = domain::to_pg_timestamp(p.due_date);
  auto ps = domain::to_pg_timestamp(p.period_start);
  auto pe = domain::to_pg_timestamp(p.period_end);
  int64_t id = 0;
  sql << insert_payment_sql, soci::use(tenant_id), soci::use(p.client_id),
      soci::use(sub.value, sub.ind), soci::use(p.type), soci::use(p.amount), soci::use(p.currency),
      soci::use(due), soci::use(grace.value, grace.ind), soci::use(ps), soci::use(pe),
      soci::use(p.line_items_json), soci::use(notes.value, notes.ind), soci::into(id);
  auto stored = find_payment_request(sql, tenant_id, id);
  if (!stored)
    throw std::runtime_error("payment request vanished after insert");
  return *stored;
}

page_of<domain::subscription_record> list_subscriptions(soci::session& sql, int64_t tenant_id,
                                                        const subscription_filter& filter,
                                                        const page_request& page) {
  nullable<int64_t> c{filter.client_id};
  nullable_text s{filter.status};
  return paged<subscription_row>(
      sql, subscription_columns, std::string{subscription_from} + subscription_where,
      "ORDER BY s.created_at DESC, s.id DESC",
      [&](soci::details::prepare_temp_type& prep) {
        prep, soci::use(tenant_id), soci::use(c.value, c.ind), soci::use(c.value, c.ind),
            soci::use(s.value, s.ind), soci::use(s.value, s.ind);
      },
      page);
}

std::optional<domain::subscription_record> find_subscription(soci::session& sql, int64_t tenant_id,
                                                             int64_t id) {
  subscription_row row;
  auto prep = (sql.prepare << std::string{"SELECT "} + subscription_columns + subscription_from +
                                  "WHERE s.tenant_id = :t AND s.id = :id",
               soci::use(tenant_id), soci::use(id));
  row.bind(prep);
  soci::statement st{prep};
  if (!st.execute(true))
    return std::nullopt;
  return row.finish();
}

bool subscription_of_client(soci::session& sql, int64_t tenant_id, int64_t client_id,
                            int64_t subscription_id) {
  long long n = 0;
  sql << "SELECT count(*) FROM subscriptions WHERE tenant_id = :t AND client_id = :c AND id = :s",
      soci::use(tenant_id), soci::use(client_id), soci::use(subscription_id), soci::into(n);
  return n > 0;
}

page_of<domain::usage_record> list_usage(soci::session& sql, int64_t tenant_id,
                                         std::optional<int64_t> client_id,
                                         const page_request& page) {
  nullable<int64_t> c{client_id};
  return paged<usage_row>(
      sql, usage_columns, std::string{usage_from} + usage_where,
      "ORDER BY u.updated_at DESC, u.subscription_id DESC",
      [&](soci::details::prepare_temp_type& prep) {
        prep, soci::use(tenant_id), soci::use(c.value, c.ind), soci::use(c.value, c.ind);
      },
      page);
}

std::optional<int64_t> tenant_of_client(soci::session& sql, int64_t client_id) {
  int64_t tenant = 0;
  soci::statement st = (sql.prepare << "SELECT tenant_id FROM clients WHERE id = :c",
                        soci::use(client_id), soci::into(tenant));
  if (!st.execute(true))
    return std::nullopt;
  return tenant;
}

} // namespace vcs::storage
