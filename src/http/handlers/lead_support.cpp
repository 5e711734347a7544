#include "http/handlers/lead_support.hpp"

#include "domain/campaign_errors.hpp"
#include "domain/global_id.hpp"

namespace vcs::http::handlers {

domain::result<lead_campaign> path_lead_campaign(const exchange_ptr& ex) {
  auto id = domain::parse_id(domain::entity::campaign, ex->param("campaign_id"));
  if (!id)
    return domain::campaign_not_found();
  return lead_campaign{ex->principal->tenant_id, *id};
}

domain::error invalid_lead_data(std::vector<std::string> problems) {
  return domain::error{domain::errc::bad_request, "Invalid data"}.with_detail(std::move(problems));
}

domain::result<rapidjson::Document> read_bulk_body(std::string_view body, std::size_t max_items) {
  auto doc = parse_json(body);
  if (!doc || !doc->IsArray() || doc->Empty())
    return domain::error{domain::errc::bad_request, "Request body must be a non-empty list"};
  if (doc->Size() > max_items)
    return domain::too_many_items(max_items);
  return std::move(*doc);
}

std::string lead_outcome_message(domain::lead_outcome outcome, lead_change change) {
  switch (outcome) {
  case domain::lead_outcome::done:
    return change == lead_change::update ? "Lead updated successfully"
                                         : "Lead removed successfully";
  case domain::lead_outcome::not_found:
    return change == lead_change::update
               ? "Lead not found"
               : "Lead not found with the given phone number or campaign lead id";
  case domain::lead_outcome::not_answered:
    return "mark_as_unanswered: The lead is not marked as answered.";
  case domain::lead_outcome::not_run:
    // An item a bulk request did not reach before the database failed.
    return "Not processed: the request stopped before this item; send it again";
  }
  return {};
}

void respond_success(const exchange_ptr& ex, std::string_view message) {
  json_out out;
  out.w().StartObject();
  out.field("status", "success");
  out.field("message", message);
  out.w().EndObject();
  ex->respond(200, out.take());
}

} // namespace vcs::http::handlers
