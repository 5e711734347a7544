// The tenant's webhook routes: its deliveries (list, read, replay, a test
// event), its endpoints (list, enable again) and its signing secret.

#include "domain/global_id.hpp"
#include "domain/permission.hpp"
#include "domain/webhook_event.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/lookup.hpp"
#include "http/handlers/readers.hpp"
#include "http/handlers/webhook_render.hpp"
#include "storage/webhook_repository.hpp"

namespace vcs::http::handlers {

namespace {

// {status: "success", message, data: render(item)} with `code`.
template <class T, class Render>
void respond_one(const exchange_ptr& ex, unsigned code, std::string_view message, const T& item,
                 Render render) {
  json_out out;
  out.w().StartObject();
  out.field("status", "success");
  out.field("message", message);
  out.key("data");
  render(out, item);
  out.w().EndObject();
  ex->respond(code, out.take());
}

// The path parameter `name`, a positive integer, or 404 `not_found`.
domain::result<int64_t> path_id(const exchange_ptr& ex, const char* name, const char* not_found) {
  auto id = domain::parse_positive_int(ex->param(name));
  if (!id)
    return domain::not_found(not_found);
  return *id;
}

constexpr const char* delivery_not_found = "Webhook delivery not found";
constexpr const char* endpoint_not_found = "Webhook endpoint not found";

// GET /api/v2/webhook-deliveries?status=&event_type=&campaign_id=&page=&page_size=
class list_deliveries_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    const auto& t = ex->target;
    storage::delivery_filter f;
    storage::page_request page;
    if (auto refused = read_choice(t, "status", domain::webhook_delivery_statuses(), f.status))
      return ex->fail(*refused);
    if (auto refused = read_choice(t, "event_type", domain::webhook_event_types(), f.event_type))
      return ex->fail(*refused);
    if (auto v = t.param("campaign_id")) {
      f.campaign_id = domain::parse_id(domain::entity::campaign, *v);
      if (!f.campaign_id)
        return ex->fail(
            domain::error{domain::errc::bad_request, "Invalid campaign_id: '" + *v + "'"});
      if (!ex->principal->scope.reaches_campaign(*f.campaign_id))
        return ex->fail(domain::campaign_out_of_scope());
    }
    f.campaigns = ex->principal->scope.campaigns;
    if (auto refused = read_page(t, page))
      return ex->fail(*refused);
    respond_page(ex, storage::page_webhooks(ctx.db(), ex->principal->tenant_id, f, page), page,
                 render_delivery);
  }
};

// GET /api/v2/webhook-deliveries/{delivery_id}
class get_delivery_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto id = path_id(ex, "delivery_id", delivery_not_found);
    if (!id)
      return ex->fail(id.err());
    auto d = storage::find_webhook(ctx.db(), ex->principal->tenant_id, *id,
                                   ex->principal->scope.campaigns);
    if (!d)
      return ex->fail(domain::not_found(delivery_not_found));
    respond_one(ex, 200, "Webhook delivery retrieved successfully", *d, render_delivery);
  }
};

// POST /api/v2/webhook-deliveries/{delivery_id}/replay: back to pending,
// attempts reset, sent again at once (its endpoint must be enabled).
class replay_delivery_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto id = path_id(ex, "delivery_id", delivery_not_found);
    if (!id)
      return ex->fail(id.err());
    ask_tenant<storage::webhook_delivery>(
        ctx.self, ex, ex->principal->tenant_id,
        [ex](const storage::webhook_delivery& d) {
          respond_one(ex, 202, "Webhook delivery queued again", d, render_delivery);
        },
        std::make_tuple(actors::update_atom::value,
                        actors::webhook_replay{*id, ex->principal->scope.campaigns}));
  }
};

// POST /api/v2/voice-campaigns/{campaign_id}/webhook-test: a webhook.test
// event queued for the campaign's webhook_url, signed and retried as any.
class test_event_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto c = path_campaign(ex, ctx);
    if (!c)
      return ex->fail(c.err());
    ask_tenant<storage::webhook_delivery>(
        ctx.self, ex, c->tenant_id,
        [ex](const storage::webhook_delivery& d) {
          respond_one(ex, 202, "Test event queued", d, render_delivery);
        },
        std::make_tuple(actors::create_atom::value, actors::webhook_test{c->id}));
  }
};

// GET /api/v2/webhook-endpoints?page=&page_size=
class list_endpoints_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    storage::page_request page;
    if (auto refused = read_page(ex->target, page))
      return ex->fail(*refused);
    respond_page(ex, storage::page_webhook_endpoints(ctx.db(), ex->principal->tenant_id, page),
                 page, render_endpoint);
  }
};

// POST /api/v2/webhook-endpoints/{endpoint_id}/enable
class enable_endpoint_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto id = path_id(ex, "endpoint_id", endpoint_not_found);
    if (!id)
      return ex->fail(id.err());
    ask_tenant<storage::webhook_endpoint>(
        ctx.self, ex, ex->principal->tenant_id,
        [ex](const storage::webhook_endpoint& e) {
          respond_one(ex, 200, "Webhook endpoint enabled", e, render_endpoint);
        },
        std::make_tuple(actors::update_atom::value, actors::webhook_endpoint_enable{*id}));
  }
};

// POST /api/v2/webhook-secret {grace_period_seconds}: a new signing secret,
// shown once; the old one keeps signing beside it for the grace period.
class rotate_secret_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto tenant_id = ex->principal->tenant_id;
    auto rotation = rotation_request(ex, tenant_id);
    if (!rotation)
      return ex->fail(rotation.err());
    ask_tenant<storage::secret_rotation>(
        ctx.self, ex, tenant_id,
        [ex, secret = rotation->secret](const storage::secret_rotation& r) {
          respond_rotation(ex, secret, r);
        },
        std::make_tuple(actors::update_atom::value, std::move(rotation->message)));
  }
};

} // namespace

std::shared_ptr<handler> list_tenant_webhook_deliveries() {
  return std::make_shared<list_deliveries_handler>();
}
std::shared_ptr<handler> get_tenant_webhook_delivery() {
  return std::make_shared<get_delivery_handler>();
}
std::shared_ptr<handler> replay_tenant_webhook_delivery() {
  return std::make_shared<replay_delivery_handler>();
}
std::shared_ptr<handler> send_webhook_test() {
  return std::make_shared<test_event_handler>();
}
std::shared_ptr<handler> list_webhook_endpoints() {
  return std::make_shared<list_endpoints_handler>();
}
std::shared_ptr<handler> enable_webhook_endpoint() {
  return std::make_shared<enable_endpoint_handler>();
}
std::shared_ptr<handler> rotate_tenant_webhook_secret() {
  return std::make_shared<rotate_secret_handler>();
}

} // namespace vcs::http::handlers
