// The operator's webhook routes: a tenant's signing secret and its outbox.

#include "actors/webhook_dispatcher.hpp"
#include "domain/global_id.hpp"
#include "domain/webhook_signature.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/lookup.hpp"
#include "http/request_error.hpp"
#include "storage/webhook_repository.hpp"

namespace vcs::http::handlers {

namespace {

// POST /admin/v1/tenants/{tenant_id}/webhook-secret: a new signing secret,
// shown once (stored sealed); deliveries are signed with it from now on.
class rotate_secret_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    auto secret = domain::new_webhook_secret();
    actors::webhook_secret_set msg{
        ex->svc.secrets->seal(secret, actors::webhook_secret_binding(t.id))};
    ask_tenant<bool>(
        ctx.self, ex, t.id,
        [ex, secret](bool) {
          json_out out;
          out.w().StartObject();
          out.field("webhook_secret", secret);
          out.field("signature_header", domain::webhook_signature_header);
          out.w().EndObject();
          ex->respond(201, out.take());
        },
        std::make_tuple(actors::update_atom::value, std::move(msg)));
  }
};

// GET /admin/v1/tenants/{tenant_id}/webhook-deliveries?status=&limit=
class list_deliveries_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    auto status = ex->target.param("status");
    if (status && *status != "pending" && *status != "delivered" && *status != "dead") {
      domain::error e{domain::errc::bad_request, "Invalid status: " + *status};
      e.valid_values = std::vector<std::string>{"pending", "delivered", "dead"};
      return ex->fail(e);
    }
    auto limit = value_or_throw(limit_param(*ex));
    respond_list(ex, "deliveries", storage::list_webhooks(ctx.db(), t.id, status, limit),
                 [](json_out& out, const storage::webhook_delivery& d) {
                   out.field("id", std::to_string(d.id));
                   out.field("event_id", d.event_id);
                   out.field("event_type", d.event_type);
                   if (d.campaign_id)
                     out.field("campaign_id",
                               domain::encode_global_id(domain::entity::campaign, *d.campaign_id));
                   else
                     out.null_field("campaign_id");
                   out.field("url", d.url);
                   out.field("status", d.status);
                   out.field("attempts", d.attempts);
                   out.field("next_attempt_at", domain::format_utc(d.next_attempt_at));
                   out.field("last_error", d.last_error);
                   if (d.last_status)
                     out.field("last_status", *d.last_status);
                   else
                     out.null_field("last_status");
                   out.field("created_at", domain::format_utc(d.created_at));
                   time_field(out, "delivered_at", d.delivered_at);
                   out.key("payload");
                   out.w().RawValue(d.payload.data(), d.payload.size(), rapidjson::kObjectType);
                 });
  }
};

// POST /admin/v1/tenants/{tenant_id}/webhook-deliveries/{delivery_id}/replay
class replay_delivery_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    auto id = domain::parse_positive_int(ex->param("delivery_id"));
    if (!id)
      return ex->fail(domain::not_found("Webhook delivery not found"));
    ask_tenant<bool>(
        ctx.self, ex, t.id,
        [ex](bool queued) {
          if (!queued)
            return ex->fail(domain::not_found("Webhook delivery not found"));
          json_out out;
          out.w().StartObject();
          out.field("message", "Delivery queued again");
          out.w().EndObject();
          ex->respond(200, out.take());
        },
        std::make_tuple(actors::update_atom::value, actors::webhook_replay{*id}));
  }
};

} // namespace

std::shared_ptr<handler> rotate_webhook_secret() {
  return std::make_shared<rotate_secret_handler>();
}
std::shared_ptr<handler> list_webhook_deliveries() {
  return std::make_shared<list_deliveries_handler>();
}
std::shared_ptr<handler> replay_webhook_delivery() {
  return std::make_shared<replay_delivery_handler>();
}

} // namespace vcs::http::handlers
