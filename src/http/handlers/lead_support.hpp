#pragma once

#include "domain/lead_record.hpp"
#include "http/handler.hpp"
#include "http/json.hpp"
#include "http/on_cpu_pool.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace vcs::http::handlers {

struct lead_campaign {
  int64_t tenant_id = 0;
  int64_t campaign_id = 0;
  int64_t lead_total = 0;
};

// The campaign of the {campaign_id} path parameter, owned by the key's
// tenant; otherwise 404 `Campaign not found` has been sent.
std::optional<lead_campaign> path_lead_campaign(const exchange_ptr& ex, worker_context& ctx);

// 400 `Invalid data` with the problems as `error` (the lead endpoints' form).
domain::error invalid_lead_data(std::vector<std::string> problems);

// A bulk body as a document, or the 400 refusing it: a non-empty JSON array
// of at most `max_items`, counted on the raw text first, so an oversized list
// is refused without building it (a 60 MB body would cost a second of CPU and
// its size again in memory).
std::variant<domain::error, rapidjson::Document> read_bulk_body(std::string_view body,
                                                                std::size_t max_items);

// Reads the request's bulk body and its items with `read(document)` on the
// CPU pool, then runs `next(ctx, items)` back on the worker; a refused body
// is answered 400 instead.
template <class Read, class Next>
void with_bulk_body(const exchange_ptr& ex, const worker_context& ctx, std::size_t max_items,
                    Read read, Next next) {
  using items = std::invoke_result_t<Read&, rapidjson::Document&>;
  on_cpu_pool(
      ex, ctx,
      [ex, max_items, read]() mutable -> std::variant<domain::error, items> {
        auto body = read_bulk_body(ex->request.body, max_items);
        if (auto* refused = std::get_if<domain::error>(&body))
          return std::move(*refused);
        return read(std::get<rapidjson::Document>(body));
      },
      [ex, next](worker_context& ctx, std::variant<domain::error, items>& read_out) mutable {
        if (auto* refused = std::get_if<domain::error>(&read_out))
          return ex->fail(*refused);
        next(ctx, std::get<items>(read_out));
      });
}

// {status: "success", message} with status 200.
void respond_success(const exchange_ptr& ex, std::string_view message);

} // namespace vcs::http::handlers
