#include "http/handlers/listing.hpp"

#include "domain/page_size.hpp"
#include "http/handlers/readers.hpp"
#include "http/inputs/query.hpp"

#include <limits>
#include <string>

namespace vcs::http::handlers {

namespace {

constexpr int32_t list_limit_default = 100;
constexpr int32_t list_limit_max = 1000;

} // namespace

domain::error invalid_choice(std::string_view name, std::string_view value,
                             const std::vector<std::string>& values) {
  domain::error e{domain::errc::bad_request, "Invalid " + std::string{name} + ": '" +
                                                 std::string{value} +
                                                 "'. Valid values are: " + domain::join(values)};
  e.valid_values = values;
  return e;
}

std::optional<domain::error> read_choice(const target& t, const char* name,
                                         const std::vector<std::string>& values,
                                         std::optional<std::string>& out) {
  auto v = t.param(name);
  if (!v)
    return std::nullopt;
  if (!domain::one_of(values, *v))
    return invalid_choice(name, *v, values);
  out = *v;
  return std::nullopt;
}

std::optional<domain::error> read_id_param(const target& t, const char* name, domain::entity kind,
                                           std::optional<int64_t>& out) {
  auto v = t.param(name);
  if (!v)
    return std::nullopt;
  out = domain::parse_id(kind, *v);
  if (!out)
    return domain::error{domain::errc::bad_request,
                         "Invalid " + std::string{name} + ": '" + *v + "'"};
  return std::nullopt;
}

std::optional<domain::error> read_flag(const target& t, const char* name,
                                       std::optional<bool>& out) {
  auto v = t.param(name);
  if (!v)
    return std::nullopt;
  if (*v != "true" && *v != "false")
    return domain::error{domain::errc::bad_request, "Invalid " + std::string{name} + ": '" + *v +
                                                        "'. Valid values are: true, false"};
  out = *v == "true";
  return std::nullopt;
}

std::optional<domain::error> read_page(const target& t, storage::page_request& page) {
  if (auto v = t.param("page")) {
    auto n = parse_whole_number(*v);
    if (!n || *n < 1)
      return domain::error{domain::errc::bad_request,
                           "Invalid page: '" + *v + "'. Must be an integer >= 1"};
    page.page = *n;
  }
  page.page_size = domain::default_page_size;
  if (auto v = t.param("page_size")) {
    auto n = parse_whole_number(*v);
    if (!n || *n < 1 || *n > domain::max_page_size)
      return domain::error{domain::errc::bad_request,
                           "Invalid page_size: '" + *v + "'. Must be an integer from 1 to 100"};
    page.page_size = *n;
  }
  // The page's offset, (page - 1) * page_size, must fit the int64 the
  // database is given.
  constexpr auto max = std::numeric_limits<int64_t>::max();
  if (page.page - 1 > max / page.page_size)
    return domain::error{domain::errc::bad_request, "Invalid page: '" + std::to_string(page.page) +
                                                        "'. Must be an integer from 1 to " +
                                                        std::to_string(max / page.page_size + 1)};
  return std::nullopt;
}

bool asks_for_a_page(const target& t) {
  return t.param("page") || t.param("page_size");
}

void meta_field(json_out& out, int64_t total, const storage::page_request& req,
                std::optional<bool> total_capped) {
  out.key("meta");
  out.w().StartObject();
  out.field("total", total);
  if (total_capped)
    out.field("total_capped", *total_capped);
  out.field("page", req.page);
  out.field("page_size", req.page_size);
  out.w().EndObject();
}

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
