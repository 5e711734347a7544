#include "storage/form_repository.hpp"

#include "storage/prepared.hpp"

namespace vcs::storage {

namespace {

constexpr prepared_statement insert_form_stmt{
    "vcs_insert_client_form",
    "INSERT INTO client_forms (tenant_id, title) VALUES ($1, $2) RETURNING id, created_at"};
constexpr prepared_statement find_form_stmt{
    "vcs_find_client_form",
    "SELECT id, tenant_id, title, created_at FROM client_forms WHERE id = $1"};
constexpr prepared_statement tenant_form_stmt{
    "vcs_tenant_has_form", "SELECT count(*) FROM client_forms WHERE tenant_id = $1 AND id = $2"};
constexpr prepared_statement client_exists_stmt{
    "vcs_form_client_exists", "SELECT count(*) FROM clients WHERE tenant_id = $1 AND id = $2"};
constexpr prepared_statement insert_submission_stmt{
    "vcs_insert_form_submission",
    "INSERT INTO form_submissions (tenant_id, form_id, client_id, response_data, is_test) "
    "VALUES ($1, $2, $3, $4::jsonb, $5::boolean) RETURNING id, created_at, updated_at"};
// A missing client filter matches every client.
#define VCS_SUBMISSIONS_OF_FORM                                                                    \
  "SELECT id, form_id, client_id, response_data, is_test, created_at, updated_at "                 \
  "FROM form_submissions WHERE tenant_id = $1 AND form_id = $2 "                                   \
  "AND ($3::bigint IS NULL OR client_id = $3) "
// Along form_submissions_form_newest_idx, the cursor in its condition.
constexpr prepared_statement after_stmt{"vcs_form_submissions_after", VCS_SUBMISSIONS_OF_FORM
                                        "AND (created_at, id) < ($4::timestamptz, $5::bigint) "
                                        "ORDER BY created_at DESC, id DESC LIMIT $6::bigint"};
constexpr prepared_statement page_stmt{
    "vcs_page_form_submissions",
    VCS_SUBMISSIONS_OF_FORM "ORDER BY created_at DESC, id DESC LIMIT $4::bigint OFFSET $5::bigint"};
#undef VCS_SUBMISSIONS_OF_FORM
constexpr prepared_statement count_stmt{
    "vcs_count_form_submissions",
    "SELECT count(*) FROM form_submissions WHERE tenant_id = $1 AND form_id = $2 "
    "AND ($3::bigint IS NULL OR client_id = $3)"};
constexpr prepared_statement client_page_stmt{
    "vcs_page_client_submissions",
    "SELECT s.id, s.form_id, s.client_id, s.response_data, s.is_test, s.created_at, s.updated_at, "
    "f.title FROM form_submissions s JOIN client_forms f ON f.tenant_id = s.tenant_id AND f.id = "
    "s.form_id WHERE s.tenant_id = $1 AND s.client_id = $2 "
    "ORDER BY s.created_at DESC, s.id DESC LIMIT $3::bigint OFFSET $4::bigint"};
constexpr prepared_statement client_count_stmt{
    "vcs_count_client_submissions",
    "SELECT count(*) FROM form_submissions WHERE tenant_id = $1 AND client_id = $2"};
namespace submission_col {
enum : int { id, form_id, client_id, response_data, is_test, created_at, updated_at };
}

} // namespace

domain::client_form insert_client_form(soci::session& sql, int64_t tenant_id,
                                       const std::string& title) {
  auto row = execute(sql, insert_form_stmt, {tenant_id, title});
  domain::client_form f;
  f.id = row.int64(0, 0);
  f.tenant_id = tenant_id;
  f.title = title;
  f.created_at = row.timestamp(0, 1);
  return f;
}

std::optional<domain::client_form> find_client_form(soci::session& sql, int64_t form_id) {
  auto row = execute(sql, find_form_stmt, {form_id});
  if (row.size() == 0)
    return std::nullopt;
  domain::client_form f;
  f.id = row.int64(0, 0);
  f.tenant_id = row.int64(0, 1);
  f.title = row.text(0, 2);
  f.created_at = row.timestamp(0, 3);
  return f;
}

bool tenant_has_form(soci::session& sql, int64_t tenant_id, int64_t form_id) {
  return execute(sql, tenant_form_stmt, {tenant_id, form_id}).int64(0, 0) > 0;
}

domain::result<domain::form_submission> insert_submission(soci::session& sql, int64_t tenant_id,
                                                          const domain::form_submission& s) {
  if (execute(sql, client_exists_stmt, {tenant_id, s.client_id}).int64(0, 0) == 0)
    return domain::not_found("Client not found");
  auto row = execute(sql, insert_submission_stmt,
                     {tenant_id, s.form_id, s.client_id, s.response_data_json, s.is_test});
  domain::form_submission out = s;
  out.id = row.int64(0, 0);
  out.created_at = row.timestamp(0, 1);
  out.updated_at = row.timestamp(0, 2);
  return out;
}

namespace {

std::vector<domain::form_submission> submissions(const pg_rows& rows) {
  std::vector<domain::form_submission> out;
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i) {
    domain::form_submission s;
    s.id = rows.int64(i, submission_col::id);
    s.form_id = rows.int64(i, submission_col::form_id);
    s.client_id = rows.int64(i, submission_col::client_id);
    s.response_data_json = rows.text(i, submission_col::response_data);
    s.is_test = rows.boolean(i, submission_col::is_test);
    s.created_at = rows.timestamp(i, submission_col::created_at);
    s.updated_at = rows.timestamp(i, submission_col::updated_at);
    out.push_back(std::move(s));
  }
  return out;
}

} // namespace

std::vector<domain::form_submission>
list_submissions(soci::session& sql, int64_t tenant_id, int64_t form_id,
                 std::optional<int64_t> client_id, const std::optional<newest_first_cursor>& after,
                 int64_t limit) {
  return submissions(
      after ? execute(sql, after_stmt,
                      {tenant_id, form_id, client_id, after->created_at, after->id, limit})
            : execute(sql, page_stmt, {tenant_id, form_id, client_id, limit, int64_t{0}}));
}

page_of<domain::form_submission> page_of_submissions(soci::session& sql, int64_t tenant_id,
                                                     int64_t form_id,
                                                     std::optional<int64_t> client_id,
                                                     const page_request& page) {
  page_of<domain::form_submission> out;
  out.total = execute(sql, count_stmt, {tenant_id, form_id, client_id}).int64(0, 0);
  out.items = submissions(
      execute(sql, page_stmt, {tenant_id, form_id, client_id, page.page_size, offset_of(page)}));
  return out;
}

page_of<domain::client_submission> page_of_client_submissions(soci::session& sql, int64_t tenant_id,
                                                              int64_t client_id,
                                                              const page_request& page) {
  page_of<domain::client_submission> out;
  out.total = execute(sql, client_count_stmt, {tenant_id, client_id}).int64(0, 0);
  auto rows =
      execute(sql, client_page_stmt, {tenant_id, client_id, page.page_size, offset_of(page)});
  auto submissions_of = submissions(rows);
  for (int i = 0; i < rows.size(); ++i)
    out.items.push_back(
        {std::move(submissions_of[static_cast<std::size_t>(i)]), std::string{rows.text(i, 7)}});
  return out;
}

} // namespace vcs::storage
