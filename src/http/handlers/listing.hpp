#pragma once

// The lists' query parameters and JSON shapes: the operator plane's
// (`limit`, {<key>: [...]}) and the contract style's (`page`, `page_size`,
// {data: [...], meta: {total, page, page_size}}). The readers of `page` and
// of a choice are declared in readers.hpp, for the fuzz targets.

#include "domain/error.hpp"
#include "domain/timestamp.hpp"
#include "http/handler.hpp"
#include "http/json.hpp"
#include "storage/page.hpp"

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
  out.key("meta");
  out.w().StartObject();
  out.field("total", page.total);
  out.field("page", req.page);
  out.field("page_size", req.page_size);
  out.w().EndObject();
  out.w().EndObject();
  ex->respond(200, out.take());
}

} // namespace vcs::http::handlers
