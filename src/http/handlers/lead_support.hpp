#pragma once

#include "domain/lead_record.hpp"
#include "http/handler.hpp"
#include "http/json.hpp"

#include <optional>
#include <string>
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

// A bulk body: a non-empty JSON array of at most `max_items`; otherwise the
// exchange is answered 400 and nullopt returned.
std::optional<rapidjson::Document> bulk_body(const exchange_ptr& ex, std::size_t max_items);

// {status: "success", message} with status 200.
void respond_success(const exchange_ptr& ex, std::string_view message);

} // namespace vcs::http::handlers
