#pragma once

#include "domain/error.hpp"
#include "http/inputs/json.hpp"

#include <cstddef>
#include <string_view>

namespace vcs::http {

// A bulk add sent as CSV (text/csv), as dialers export leads: a header row
// naming the JSON lead input's fields (phone_number, first_name,
// last_name, email, and custom_fields.<name> for each custom field), then
// one lead a row. Read into the JSON body's array so that both go through
// one validation: an empty cell is an absent field, and custom fields are
// text. A header that names no such field, a row with another number of
// cells, or text that is not UTF-8 is a 400 for the whole body.
domain::result<rapidjson::Document> read_lead_csv(std::string_view body, std::size_t max_items);

// Whether a Content-Type names CSV (text/csv, with or without parameters).
bool is_csv(std::string_view content_type) noexcept;

} // namespace vcs::http
