#include "http/handlers/listing.hpp"

#include "http/query.hpp"

#include <string>

namespace vcs::http::handlers {

namespace {

constexpr int32_t list_limit_default = 100;
constexpr int32_t list_limit_max = 1000;

} // namespace

domain::result<int32_t> limit_param(const exchange& ex) {
  auto text = ex.target.param("limit");
  if (!text)
    return list_limit_default;
  auto n = parse_whole_number(*text);
  if (!n || *n < 1 || *n > list_limit_max)
    return domain::error{domain::errc::bad_request,
                         "limit must be an integer from 1 to " + std::to_string(list_limit_max)};
  return static_cast<int32_t>(*n);
}

void time_field(json_out& out, std::string_view name, std::optional<domain::timestamp> t) {
  if (t)
    out.field(name, domain::format_utc(*t));
  else
    out.null_field(name);
}

} // namespace vcs::http::handlers
