// The operator's webhook routes: a tenant's signing secret and its outbox.

#include "domain/global_id.hpp"
#include "domain/webhook_event.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/lookup.hpp"
#include "http/handlers/readers.hpp"
#include "http/handlers/webhook_render.hpp"
#include "storage/webhook_repository.hpp"

namespace vcs::http::handlers {

namespace {

// POST /admin/v1/tenants/{tenant_id}/webhook-secret {grace_period_seconds}:
// a new signing secret, shown once (stored sealed); the old one keeps
// signing beside it for the grace period.
class rotate_secret_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    auto rotation = rotation_request(ex, t->id);
    if (!rotation)
      return ex->fail(rotation.err());
    ask_tenant<storage::secret_rotation>(
        ctx.self, ex, t->id,
        [ex, secret = rotation->secret](const storage::secret_rotation& r) {
          respond_rotation(ex, secret, r);
        },
        std::make_tuple(actors::update_atom::value, std::move(rotation->message)));
  }
};

// GET /admin/v1/tenants/{tenant_id}/webhook-deliveries?status=&limit=
class list_deliveries_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    std::optional<std::string> status;
    if (auto refused =
            read_choice(ex->target, "status", domain::webhook_delivery_statuses(), status))
      return ex->fail(*refused);
    auto limit = limit_param(*ex);
    if (!limit)
      return ex->fail(limit.err());
    json_out out;
    out.w().StartObject();
    out.key("deliveries");
    out.w().StartArray();
    for (const auto& d : storage::list_webhooks(ctx.db(), t->id, status, *limit))
      render_delivery(out, d);
    out.w().EndArray();
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

// POST /admin/v1/tenants/{tenant_id}/webhook-deliveries/{delivery_id}/replay
class replay_delivery_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    auto id = domain::parse_positive_int(ex->param("delivery_id"));
    if (!id)
      return ex->fail(domain::not_found("Webhook delivery not found"));
    ask_tenant<storage::webhook_delivery>(
        ctx.self, ex, t->id,
        [ex](const storage::webhook_delivery&) {
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
