#pragma once

#include "domain/error.hpp"
#include "domain/lead_record.hpp"
#include "http/inputs/json.hpp"
#include "http/work/handler.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace vcs::http::handlers {

struct lead_campaign {
  int64_t tenant_id = 0;
  int64_t campaign_id = 0;
};

// The key's tenant and the {campaign_id} path parameter, or 404 `Campaign
// not found` when it names no campaign id. Whether the tenant has that
// campaign is the campaign actor's answer: its row lock finds the row or
// answers 404 (no round trip here).
domain::result<lead_campaign> path_lead_campaign(const exchange_ptr& ex);

// 400 `Invalid data` with the problems as `error` (the lead endpoints' form).
domain::error invalid_lead_data(std::vector<std::string> problems);

// A bulk body as a document, or the 400 refusing it: a non-empty JSON array
// of at most `max_items` (the session refused a longer one while reading it:
// handler::body_items).
domain::result<rapidjson::Document> read_bulk_body(std::string_view body, std::size_t max_items);

// What a lead update or removal did, in words: a bulk item's message and
// the v1 route's answer (there `not_answered` is its 400's problem, in the
// "field: problem" form of the other invalid items).
enum class lead_change { update, removal };
std::string lead_outcome_message(domain::lead_outcome outcome, lead_change change);

// {status: "success", message} with status 200.
void respond_success(const exchange_ptr& ex, std::string_view message);

} // namespace vcs::http::handlers
