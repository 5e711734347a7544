#include "domain/global_id.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lead_support.hpp"
#include "http/inputs/lead_input.hpp"

namespace vcs::http::handlers {

namespace {

// v1 bodies carry tenant_id; it must name the key's tenant (integer or
// global id). Returns the error refusing the body otherwise.
std::optional<domain::error> check_tenant_id(const exchange_ptr& ex, const rapidjson::Value& body) {
  auto it = body.FindMember("tenant_id");
  if (it == body.MemberEnd() || it->value.IsNull())
    return invalid_lead_data({"tenant_id: This field is required."});
  std::optional<int64_t> id;
  if (it->value.IsString())
    id = domain::parse_id(domain::entity::tenant,
                          std::string_view{it->value.GetString(), it->value.GetStringLength()});
  else if (it->value.IsInt64() && it->value.GetInt64() > 0)
    id = it->value.GetInt64();
  if (id != ex->principal->tenant_id)
    return domain::error{domain::errc::forbidden, "tenant_id does not match the API key"};
  return std::nullopt;
}

// A v1 body: a JSON object naming the key's tenant, or the error refusing
// it.
domain::result<rapidjson::Document> v1_body(const exchange_ptr& ex) {
  auto body = parse_json(ex->request.body);
  if (!body || !body->IsObject())
    return invalid_lead_data({"Request body must be a JSON object."});
  if (auto refused = check_tenant_id(ex, *body))
    return std::move(*refused);
  return std::move(*body);
}

// PATCH /v1/api/voice-campaigns/{campaign_id}/lead/update
class v1_update_lead_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = v1_body(ex);
    if (!body)
      return ex->fail(body.err());
    std::vector<std::string> problems;
    auto update = read_lead_update(*body, problems);
    if (!update)
      return ex->fail(invalid_lead_data(std::move(problems)));
    auto c = path_lead_campaign(ex);
    if (!c)
      return ex->fail(c.err());
    actors::lead_updates updates;
    updates.items.push_back(std::move(*update));
    ask_campaign<actors::lead_outcomes>(
        ctx.self, ex, c->tenant_id, c->campaign_id,
        [ex](actors::lead_outcomes& outcomes) {
          const auto outcome = outcomes.items.at(0);
          const auto message = lead_outcome_message(outcome, lead_change::update);
          switch (outcome) {
          case domain::lead_outcome::done:
            return respond_success(ex, message);
          case domain::lead_outcome::not_found:
            return ex->fail(domain::not_found(message));
          case domain::lead_outcome::not_answered:
            return ex->fail(invalid_lead_data({message}));
          case domain::lead_outcome::not_run:
            return ex->fail(domain::not_run_in_time());
          }
        },
        std::make_tuple(actors::update_atom::value, std::move(updates)));
  }
};

// DELETE /v1/api/voice-campaigns/{campaign_id}/lead/remove
class v1_remove_lead_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = v1_body(ex);
    if (!body)
      return ex->fail(body.err());
    std::vector<std::string> problems;
    auto removal = read_lead_removal(*body, problems);
    if (!removal) {
      bool missing_key = !body->HasMember("phone_number") && !body->HasMember("campaign_lead_id");
      return ex->fail(missing_key ? domain::error{domain::errc::bad_request,
                                                  "Either phone_number or campaign_lead_id is "
                                                  "required"}
                                  : invalid_lead_data(std::move(problems)));
    }
    auto c = path_lead_campaign(ex);
    if (!c)
      return ex->fail(c.err());
    actors::lead_removals removals;
    removals.items.push_back(std::move(*removal));
    ask_campaign<actors::lead_outcomes>(
        ctx.self, ex, c->tenant_id, c->campaign_id,
        [ex](actors::lead_outcomes& outcomes) {
          const auto outcome = outcomes.items.at(0);
          const auto message = lead_outcome_message(outcome, lead_change::removal);
          if (outcome == domain::lead_outcome::done)
            return respond_success(ex, message);
          if (outcome == domain::lead_outcome::not_run)
            return ex->fail(domain::not_run_in_time());
          ex->fail(domain::not_found(message));
        },
        std::make_tuple(actors::delete_atom::value, std::move(removals)));
  }
};

} // namespace

std::shared_ptr<handler> v1_update_lead() {
  return std::make_shared<v1_update_lead_handler>();
}
std::shared_ptr<handler> v1_remove_lead() {
  return std::make_shared<v1_remove_lead_handler>();
}

} // namespace vcs::http::handlers
