#include "domain/campaign_errors.hpp"
#include "domain/global_id.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/lookup.hpp"
#include "http/handlers/readers.hpp"
#include "http/inputs/campaign_input.hpp"
#include "http/render/render.hpp"
#include "outbound/outbound_client.hpp"
#include "storage/assignment_repository.hpp"
#include "storage/campaign_progress.hpp"
#include "storage/campaign_repository.hpp"

namespace vcs::http::handlers {

namespace {

std::string summary_json(std::string_view message, const domain::campaign& c) {
  json_out out;
  out.w().StartObject();
  out.field("status", "success");
  out.field("message", message);
  out.key("data");
  render_campaign_summary(out, c);
  out.w().EndObject();
  return out.take();
}

// Reads and validates the body, or returns the error that refuses it.
domain::result<campaign_input> campaign_body(const exchange_ptr& ex, bool creating) {
  auto body = object_body(ex);
  if (!body)
    return body.err();
  domain::field_errors errors;
  auto input = read_campaign_input(*body, errors);
  domain::validate_campaign(input.fields, creating, errors);
  // Resolving the host waits for DNS at most this long; a name that does
  // not answer in time is checked again at every delivery.
  constexpr auto resolve_limit = std::chrono::seconds(2);
  if (errors.empty() && input.fields.webhook_url && ex->svc.outbound)
    if (auto why = ex->svc.outbound->refusal(ex->principal->tenant_id, *input.fields.webhook_url,
                                             resolve_limit))
      errors.add("webhook_url", "Must not point at an internal address: " + *why + ".");
  if (!errors.empty())
    return domain::invalid_data(std::move(errors));
  if (input.voice_provider_malformed)
    return domain::voice_provider_not_found(input.voice_provider_ref);
  return input;
}

// POST /api/v2/voice-campaigns: through the tenant actor (plan limit).
class create_campaign_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    // A key held to some campaigns would not reach the one it made.
    if (ex->principal->scope.campaigns)
      return ex->fail(domain::campaign_creation_out_of_scope());
    auto input = campaign_body(ex, true);
    if (!input)
      return ex->fail(input.err());
    ask_tenant<domain::campaign>(
        ctx.self, ex, ex->principal->tenant_id,
        [ex](domain::campaign& c) {
          ex->respond(201, summary_json("Campaign created successfully", c));
        },
        std::make_tuple(actors::create_atom::value,
                        actors::campaign_create{std::move(input->fields),
                                                std::move(input->voice_provider_ref)}));
  }
};

// GET /api/v2/voice-campaigns: the tenant's campaigns, newest first, in the
// contract's list style. Items are stored records without progress
// (counting each campaign's leads is the campaign read's work).
class list_campaigns_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    const auto& t = ex->target;
    storage::campaign_filter f;
    storage::page_request page;
    if (auto refused = read_choice(t, "status", domain::campaign_status_names(), f.status))
      return ex->fail(*refused);
    if (auto refused = read_choice(t, "type", domain::campaign_type_names(), f.type))
      return ex->fail(*refused);
    if (auto refused = read_page(t, page))
      return ex->fail(*refused);
    f.only = ex->principal->scope.campaigns;
    auto found = storage::list_campaigns(ctx.db(), ex->principal->tenant_id, f, page);
    respond_page(ex, found, page,
                 [](json_out& out, const domain::campaign& c) { render_campaign(out, c); });
  }
};

// GET /api/v2/voice-campaigns/{campaign_id}: the full record with its
// progress.
class get_campaign_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto c = path_campaign(ex, ctx);
    if (!c)
      return ex->fail(c.err());
    auto progress = storage::read_campaign_progress(ctx.db(), std::move(*c));
    json_out out;
    out.w().StartObject();
    out.field("status", "success");
    out.field("message", "Campaign retrieved successfully");
    out.key("data");
    render_campaign(out, progress);
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

// PATCH /api/v2/voice-campaigns/{campaign_id}: through the campaign actor.
class update_campaign_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto input = campaign_body(ex, false);
    if (!input)
      return ex->fail(input.err());
    auto c = path_campaign(ex, ctx);
    if (!c)
      return ex->fail(c.err());
    if (const auto& client = ex->principal->client)
      if (auto refused = domain::check_client_campaign_changes(
              input->fields, *c,
              storage::read_client_resources(ctx.db(), c->tenant_id, client->client_id)))
        return ex->fail(std::move(*refused));
    ask_campaign<domain::campaign>(
        ctx.self, ex, c->tenant_id, c->id,
        [ex](domain::campaign& updated) {
          ex->respond(200, summary_json("Campaign updated successfully", updated));
        },
        std::make_tuple(actors::update_atom::value,
                        actors::campaign_update{std::move(input->fields),
                                                std::move(input->voice_provider_ref)}));
  }
};

// PATCH /api/v2/voice-campaigns/{campaign_id}/status
class update_campaign_status_handler final : public handler {
public:
  // The spec's shape: a refused change is `success: false`, and the allowed
  // values are `valid_statuses`.
  error_envelope envelope() const override {
    return {[](const domain::error& e) { return e.code == domain::errc::conflict; },
            "valid_statuses"};
  }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    std::optional<domain::campaign_status> status;
    if (auto it = body->FindMember("status"); it != body->MemberEnd() && it->value.IsString())
      status = domain::parse_campaign_status(
          std::string_view{it->value.GetString(), it->value.GetStringLength()});
    if (!status)
      return ex->fail(domain::invalid_campaign_status());
    auto c = path_campaign(ex, ctx);
    if (!c)
      return ex->fail(c.err());
    ask_campaign<domain::campaign>(
        ctx.self, ex, c->tenant_id, c->id,
        [ex](domain::campaign&) {
          json_out out;
          out.w().StartObject();
          out.field("success", true);
          out.field("message", "Campaign status updated successfully");
          out.w().EndObject();
          ex->respond(200, out.take());
        },
        std::make_tuple(actors::update_atom::value, actors::status_atom::value, *status));
  }
};

} // namespace

std::shared_ptr<handler> create_campaign() {
  return std::make_shared<create_campaign_handler>();
}

std::shared_ptr<handler> list_campaigns() {
  return std::make_shared<list_campaigns_handler>();
}

std::shared_ptr<handler> get_campaign() {
  return std::make_shared<get_campaign_handler>();
}

std::shared_ptr<handler> update_campaign() {
  return std::make_shared<update_campaign_handler>();
}

std::shared_ptr<handler> update_campaign_status() {
  return std::make_shared<update_campaign_status_handler>();
}

} // namespace vcs::http::handlers
