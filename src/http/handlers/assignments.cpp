#include "domain/global_id.hpp"
#include "domain/permission.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/inputs/assignment_input.hpp"
#include "storage/assignment_repository.hpp"

namespace vcs::http::handlers {

namespace {

std::string resources_json(std::string_view message, int64_t config_id,
                           const domain::assignments& set) {
  json_out out;
  out.w().StartObject();
  out.field("status", "success");
  out.field("message", message);
  out.key("data");
  out.w().StartObject();
  out.field("asset_group_id",
            domain::encode_global_id(domain::entity::account_configuration, config_id));
  out.key("assigned_resources");
  out.w().StartObject();
  for (const auto& [kind, ids] : set) {
    out.key(kind);
    out.w().StartArray();
    for (const auto& id : ids)
      out.str(id);
    out.w().EndArray();
  }
  out.w().EndObject();
  out.w().EndObject();
  out.w().EndObject();
  return out.take();
}

// The configuration of the path, the tenant's; otherwise 404 naming the id.
domain::result<int64_t> path_configuration(const exchange_ptr& ex, worker_context& ctx) {
  const auto& ref = ex->param("client_account_configuration_id");
  auto id = domain::parse_id(domain::entity::account_configuration, ref);
  if (!id || !storage::account_configuration_exists(ctx.db(), ex->principal->tenant_id, *id))
    return domain::not_found("Client account configuration not found")
        .with_errors({"Invalid client_account_configuration_id: " + ref});
  return *id;
}

// GET /api/v2/client-account-configurations/{id}/resources
class get_assignments_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto config = path_configuration(ex, ctx);
    if (!config)
      return ex->fail(config.err());
    const auto id = *config;
    auto set = storage::read_assignments(ctx.db(), ex->principal->tenant_id, id);
    ex->respond(200, resources_json("Assigned resources retrieved successfully", id, set));
  }
};

// POST /api/v2/client-account-configurations/{id}/resources/assign:
// replaces the whole set, through the tenant actor.
class assign_resources_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    actors::assignment_replace req;
    auto it = body->FindMember("assigned_resources");
    if (it == body->MemberEnd() || it->value.IsNull())
      errors.add("assigned_resources", "This field is required.");
    else
      req.set = read_assignments(it->value, "assigned_resources", errors, req.campaign_ids);
    if (!errors.empty())
      return ex->fail(domain::invalid_data(std::move(errors)));
    bool any = false;
    for (const auto& [_, ids] : req.set)
      any = any || !ids.empty();
    if (!any)
      return ex->fail(domain::error{domain::errc::bad_request, "Invalid data"}.with_errors(
          {"Assigned resources cannot be empty"}));
    if (auto refused = domain::check_reaches(ex->principal->scope, req.campaign_ids))
      return ex->fail(std::move(*refused));
    auto config = path_configuration(ex, ctx);
    if (!config)
      return ex->fail(config.err());
    const auto id = *config;
    req.config_id = id;
    req.holder = ex->principal->scope;
    ask_tenant<actors::assignment_set>(
        ctx.self, ex, ex->principal->tenant_id,
        [ex, id](actors::assignment_set& result) {
          ex->respond(200,
                      resources_json("Assigned resources updated successfully", id, result.set));
        },
        std::make_tuple(actors::update_atom::value, std::move(req)));
  }
};

// The resources routes with an empty configuration id.
class configuration_id_required_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context&) override {
    ex->fail({domain::errc::bad_request, "Client account configuration ID is required"});
  }
};

} // namespace

std::shared_ptr<handler> configuration_id_required() {
  return std::make_shared<configuration_id_required_handler>();
}

std::shared_ptr<handler> get_assignments() {
  return std::make_shared<get_assignments_handler>();
}

std::shared_ptr<handler> assign_resources() {
  return std::make_shared<assign_resources_handler>();
}

} // namespace vcs::http::handlers
