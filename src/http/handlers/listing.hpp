#pragma once

// The lists' query parameters and JSON shapes: the operator plane's
// (`limit`, {<key>: [...]}) and the contract style's (`page`, `page_size`,
// {data: [...], meta: {total, page, page_size}}). The readers of `page` and
// of a choice are declared in readers.hpp, for the fuzz targets.

#include "domain/error.hpp"
#include "domain/timestamp.hpp"
#include "http/inputs/json.hpp"
#include "http/work/handler.hpp"
#include "storage/page.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace vcs::http::handlers {

// The `limit` query parameter: 100 when absent, at most 1,000.
domain::result<int32_t> limit_param(const exchange& ex);

// The spec's answer to a status or filter value outside its set: the
// message names the value, `valid_values` lists the set.
domain::error invalid_choice(std::string_view name, std::string_view value,
                             const std::vector<std::string>& values);

// A timestamp field, or null.
void time_field(json_out& out, std::string_view name, std::optional<domain::timestamp> t);

// 200 {<key>: [render(item)...]}.
template <class Items, class Render>
void respond_list(const exchange_ptr& ex, std::string_view key, const Items& items, Render render) {
  json_out out;
  out.w().StartObject();
  out.key(key);
  out.w().StartArray();
  for (const auto& item : items) {
    out.w().StartObject();
    render(out, item);
    out.w().EndObject();
  }
  out.w().EndArray();
  out.w().EndObject();
  ex->respond(200, out.take());
}

// Whether a list whose contract answer is the whole list was asked for one
// page of it (`page` or `page_size` given).
bool asks_for_a_page(const target& t);

// The member meta: {total, page, page_size}, and total_capped when the
// list counts at most storage::counted_rows_max rows, in an object being
// written.
void meta_field(json_out& out, int64_t total, const storage::page_request& req,
                std::optional<bool> total_capped = std::nullopt);

// 200 {data: [render(out, item)...], meta: {total, page, page_size}};
// `render` writes one whole item.
template <class T, class Render>
void respond_page(const exchange_ptr& ex, const storage::page_of<T>& page,
                  const storage::page_request& req, Render render) {
  json_out out;
  out.w().StartObject();
  out.key("data");
  out.w().StartArray();
  for (const auto& item : page.items)
    render(out, item);
  out.w().EndArray();
  meta_field(out, page.total, req, page.total_capped);
  out.w().EndObject();
  ex->respond(200, out.take());
}

// Writes every row of a newest-first list, read storage::list_batch_rows at
// a time by `read(after, rows)`, each batch after the last row of the one
// before: the rows held at once, and each statement's work, stay bounded
// however long the list is, and no batch starts after `due`. Returns how
// many rows there were, or the 503 to answer when `due` came first.
template <class Read, class Render>
domain::result<std::size_t> write_in_batches(std::chrono::steady_clock::time_point due, Read read,
                                             Render render) {
  std::optional<storage::newest_first_cursor> after;
  std::size_t written = 0;
  for (;;) {
    if (std::chrono::steady_clock::now() >= due)
      return domain::error{domain::errc::unavailable,
                           "The list took too long to read; ask for it by page (page, page_size)"};
    const auto rows = read(after, storage::list_batch_rows);
    for (const auto& row : rows)
      render(row);
    written += rows.size();
    if (static_cast<int64_t>(rows.size()) < storage::list_batch_rows)
      return written;
    after = storage::newest_first_cursor{rows.back().created_at, rows.back().id};
  }
}

} // namespace vcs::http::handlers
