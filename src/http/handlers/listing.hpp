#pragma once

// The operator plane's lists (calls, webhook deliveries): their limit
// parameter and their JSON shape.

#include "domain/error.hpp"
#include "domain/timestamp.hpp"
#include "http/handler.hpp"
#include "http/json.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace vcs::http::handlers {

// The `limit` query parameter: 100 when absent, at most 1,000.
domain::result<int32_t> limit_param(const exchange& ex);

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

} // namespace vcs::http::handlers
