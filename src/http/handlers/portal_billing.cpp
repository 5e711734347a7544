// The portal's billing (GET /api/v2/portal/billing, …/payment-requests):
// what a client user reads of its own client's subscription, usage and
// payment requests, with the banner the page shows. Open while a payment
// is due, when the rest of the portal is shut.

#include "domain/portal_banner.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/readers.hpp"
#include "http/render/billing_render.hpp"
#include "http/render/subscription_view_render.hpp"
#include "storage/billing_repository.hpp"
#include "storage/client_detail_repository.hpp"

namespace vcs::http::handlers {

namespace {

// The newest payment requests the billing read lists; the rest page.
constexpr int64_t latest_requests = 20;

class portal_billing_route : public handler {
public:
  access required_access() const override { return access::client_session; }
  bool open_while_payment_due() const override { return true; }
};

// GET /api/v2/portal/billing
class portal_billing_handler final : public portal_billing_route {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto& sql = ctx.db();
    const auto tenant = ex->principal->tenant_id;
    const auto client = ex->principal->client->client_id;
    auto subscription = storage::read_client_subscription(sql, tenant, client);
    auto usage = storage::list_usage(sql, tenant, client, {1, 1});
    const storage::page_request newest{1, latest_requests};
    auto requests = storage::list_payment_requests(sql, tenant, {client, {}, {}}, newest);
    auto banner = domain::banner_for(subscription ? subscription->status : "",
                                     storage::has_unpaid_payment_requests(sql, tenant, client));
    json_out out;
    out.w().StartObject();
    out.field("success", true);
    out.key("data");
    out.w().StartObject();
    out.key("banner");
    if (banner == domain::portal_banner::none) {
      out.w().Null();
    } else {
      out.w().StartObject();
      out.field("kind", domain::to_string(banner));
      out.field("title", domain::title_of(banner));
      out.w().EndObject();
    }
    out.key("subscription");
    if (subscription)
      render_subscription_view(out, *subscription);
    else
      out.w().Null();
    out.key("usage");
    if (usage.items.empty())
      out.w().Null();
    else
      render_usage(out, usage.items.front());
    out.key("payment_requests");
    out.w().StartArray();
    for (const auto& p : requests.items)
      render_payment(out, p);
    out.w().EndArray();
    out.field("payment_requests_total", requests.total);
    out.w().EndObject();
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

// GET /api/v2/portal/payment-requests: every one of the client's, newest
// first, page by page.
class portal_payment_requests_handler final : public portal_billing_route {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    storage::page_request page;
    if (auto refused = read_page(ex->target, page))
      return ex->fail(*refused);
    auto found = storage::list_payment_requests(ctx.db(), ex->principal->tenant_id,
                                                {ex->principal->client->client_id, {}, {}}, page);
    respond_page(ex, found, page, render_payment);
  }
};

} // namespace

std::shared_ptr<handler> portal_billing() {
  return std::make_shared<portal_billing_handler>();
}

std::shared_ptr<handler> portal_payment_requests() {
  return std::make_shared<portal_payment_requests_handler>();
}

} // namespace vcs::http::handlers
