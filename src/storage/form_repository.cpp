#include "storage/form_repository.hpp"

#include "storage/nullable.hpp"
#include "storage/storage_error.hpp"

#include <soci/soci.h>

#include <stdexcept>

namespace vcs::storage {

namespace {

constexpr const char* insert_form_sql =
    "INSERT INTO client_forms (tenant_id, title) VALUES (:t, :title) RETURNING id, created_at";
constexpr const char* find_form_sql =
    "SELECT id, tenant_id, title, created_at FROM client_forms WHERE id = :id";
constexpr const char* tenant_form_sql =
    "SELECT count(*) FROM client_forms WHERE tenant_id = :t AND id = :id";
constexpr const char* client_exists_sql =
    "SELECT count(*) FROM clients WHERE tenant_id = :t AND id = :c";
constexpr const char* insert_submission_sql =
    "INSERT INTO form_submissions (tenant_id, form_id, client_id, response_data, is_test) "
    "VALUES (:t, :f, :c, :d::jsonb, :test::int::boolean) RETURNING id, created_at, updated_at";
// A missing client filter matches every client.
constexpr const char* list_sql =
    "SELECT id, form_id, client_id, response_data, is_test::int, created_at, updated_at "
    "FROM form_submissions WHERE tenant_id = :t AND form_id = :f "
    "AND (:c::bigint IS NULL OR client_id = :c2) ORDER BY created_at DESC, id DESC";

} // namespace

domain::client_form insert_client_form(soci::session& sql, int64_t tenant_id,
                                       const std::string& title) {
  domain::client_form f;
  f.tenant_id = tenant_id;
  f.title = title;
  std::string created;
  sql << insert_form_sql, soci::use(tenant_id), soci::use(title), soci::into(f.id),
      soci::into(created);
  f.created_at = timestamp_column(created);
  return f;
}

std::optional<domain::client_form> find_client_form(soci::session& sql, int64_t form_id) {
  domain::client_form f;
  std::string created;
  soci::statement st = (sql.prepare << find_form_sql, soci::use(form_id), soci::into(f.id),
                        soci::into(f.tenant_id), soci::into(f.title), soci::into(created));
  if (!st.execute(true))
    return std::nullopt;
  f.created_at = timestamp_column(created);
  return f;
}

bool tenant_has_form(soci::session& sql, int64_t tenant_id, int64_t form_id) {
  long long n = 0;
  sql << tenant_form_sql, soci::use(tenant_id), soci::use(form_id), soci::into(n);
  return n > 0;
}

domain::form_submission insert_submission(soci::session& sql, int64_t tenant_id,
                                          const domain::form_submission& s) {
  long long clients = 0;
  sql << client_exists_sql, soci::use(tenant_id), soci::use(s.client_id), soci::into(clients);
  if (clients == 0)
    throw failure(domain::not_found("Client not found"));
  domain::form_submission out = s;
  int test = s.is_test ? 1 : 0;
  std::string created, updated;
  sql << insert_submission_sql, soci::use(tenant_id), soci::use(s.form_id), soci::use(s.client_id),
      soci::use(s.response_data_json), soci::use(test), soci::into(out.id), soci::into(created),
      soci::into(updated);
  out.created_at = timestamp_column(created);
  out.updated_at = timestamp_column(updated);
  return out;
}

std::vector<domain::form_submission> list_submissions(soci::session& sql, int64_t tenant_id,
                                                      int64_t form_id,
                                                      std::optional<int64_t> client_id) {
  std::vector<domain::form_submission> out;
  nullable<int64_t> filter{client_id};
  domain::form_submission s;
  int test = 0;
  std::string created, updated;
  soci::statement st =
      (sql.prepare << list_sql, soci::use(tenant_id), soci::use(form_id),
       soci::use(filter.value, filter.ind), soci::use(filter.value, filter.ind), soci::into(s.id),
       soci::into(s.form_id), soci::into(s.client_id), soci::into(s.response_data_json),
       soci::into(test), soci::into(created), soci::into(updated));
  st.execute();
  while (st.fetch()) {
    s.is_test = test != 0;
    s.created_at = timestamp_column(created);
    s.updated_at = timestamp_column(updated);
    out.push_back(s);
  }
  return out;
}

} // namespace vcs::storage
