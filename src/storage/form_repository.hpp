#pragma once

#include "domain/client_detail.hpp"

#include "domain/client_form.hpp"
#include "domain/error.hpp"
#include "storage/page.hpp"

#include <optional>
#include <vector>

namespace soci {
class session;
}

namespace vcs::storage {

domain::client_form insert_client_form(soci::session& sql, int64_t tenant_id,
                                       const std::string& title);

// Operator look-up by id alone (the operator path names no tenant).
std::optional<domain::client_form> find_client_form(soci::session& sql, int64_t form_id);

bool tenant_has_form(soci::session& sql, int64_t tenant_id, int64_t form_id);

// The client must be the form's tenant's; otherwise 404
// `Client not found`.
domain::result<domain::form_submission> insert_submission(soci::session& sql, int64_t tenant_id,
                                                          const domain::form_submission& s);

// A form's submissions, newest first, optionally of one client: at most
// `limit` after `after` (from the newest when absent).
std::vector<domain::form_submission>
list_submissions(soci::session& sql, int64_t tenant_id, int64_t form_id,
                 std::optional<int64_t> client_id, const std::optional<newest_first_cursor>& after,
                 int64_t limit);
// One page of them, and how many there are.
page_of<domain::form_submission> page_of_submissions(soci::session& sql, int64_t tenant_id,
                                                     int64_t form_id,
                                                     std::optional<int64_t> client_id,
                                                     const page_request& page);

// The client's submissions of every form, newest first, one page of them
// (along form_submissions_client_idx) with each form's title, and how many
// there are.
page_of<domain::client_submission> page_of_client_submissions(soci::session& sql, int64_t tenant_id,
                                                              int64_t client_id,
                                                              const page_request& page);

} // namespace vcs::storage
