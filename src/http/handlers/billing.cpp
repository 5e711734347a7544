#include "domain/billing.hpp"
#include "domain/billing_records.hpp"
#include "domain/global_id.hpp"
#include "domain/plan.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/readers.hpp"
#include "http/render/billing_render.hpp"
#include "storage/billing_repository.hpp"

namespace vcs::http::handlers {

namespace {

// Every external billing route needs PRO or above: the 403 below, or
// nothing.
std::optional<domain::error> check_billing_plan(const exchange_ptr& ex) {
  if (!domain::allows_external_billing(ex->principal->plan))
    return domain::error{
        domain::errc::forbidden,
        "External Billing API access requires a PRO plan. Error Code: external_billing_api"};
  return std::nullopt;
}

} // namespace

std::optional<domain::error> read_client_filter(const target& t, std::optional<int64_t>& out) {
  return read_id_param(t, "client_id", domain::entity::client, out);
}

payment_update read_payment_update(const rapidjson::Value& body, domain::field_errors& errors) {
  payment_update out;
  object_reader in{body, errors};
  if (auto status = in.string("status", true, 16)) {
    if (domain::one_of(domain::payment_statuses(), *status)) {
      out.status = *status;
    } else {
      out.bad_status = status;
      errors.add("status", "Must be one of " + domain::join(domain::payment_statuses()) + ".");
    }
  }
  out.external_payment_id = in.string("external_payment_id", false, 255);
  return out;
}

namespace {

// GET /api/v2/external-billing/payment-requests
class list_payments_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (auto refused = check_billing_plan(ex))
      return ex->fail(*refused);
    storage::payment_filter f;
    storage::page_request page;
    const auto& t = ex->target;
    if (auto refused = read_client_filter(t, f.client_id))
      return ex->fail(*refused);
    if (auto refused = read_choice(t, "status", domain::payment_statuses(), f.status))
      return ex->fail(*refused);
    if (auto refused = read_choice(t, "type", domain::payment_types(), f.type))
      return ex->fail(*refused);
    if (auto refused = read_page(t, page))
      return ex->fail(*refused);
    auto found = storage::list_payment_requests(ctx.db(), ex->principal->tenant_id, f, page);
    respond_page(ex, found, page, render_payment);
  }
};

// GET /api/v2/external-billing/payment-requests/{id}/
class get_payment_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (auto refused = check_billing_plan(ex))
      return ex->fail(*refused);
    std::optional<domain::payment_request> p;
    if (auto id = domain::parse_positive_int(ex->param("payment_request_id")))
      p = storage::find_payment_request(ctx.db(), ex->principal->tenant_id, *id);
    if (!p)
      return ex->fail(domain::not_found("Payment request not found"));
    json_out out;
    render_payment(out, *p);
    ex->respond(200, out.take());
  }
};

// PATCH /api/v2/external-billing/payment-requests/{id}/update: a request of
// a subscription changes through that subscription's actor, where the
// subscription rules follow; any other through the tenant's actor.
class update_payment_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (auto refused = check_billing_plan(ex))
      return ex->fail(*refused);
    auto tenant = ex->principal->tenant_id;
    std::optional<domain::payment_request> current;
    if (auto id = domain::parse_positive_int(ex->param("payment_request_id")))
      current = storage::find_payment_request(ctx.db(), tenant, *id);
    if (!current)
      return ex->fail(domain::not_found("Payment request not found"));
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    auto update = read_payment_update(*body, errors);
    if (update.bad_status)
      return ex->fail(invalid_choice("status", *update.bad_status, domain::payment_statuses())
                          .with_field_errors(std::move(errors)));
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    actors::payment_change change;
    change.payment_id = current->id;
    change.status = std::move(*update.status);
    change.external_payment_id = std::move(update.external_payment_id);
    std::function<void(domain::payment_request&)> done = [ex](domain::payment_request& p) {
      json_out out;
      out.w().StartObject();
      out.field("message", "Payment request updated successfully");
      out.key("data");
      render_payment(out, p);
      out.w().EndObject();
      ex->respond(200, out.take());
    };
    auto msg = std::make_tuple(actors::update_atom::value, std::move(change));
    if (current->subscription_id)
      ask_subscription<domain::payment_request>(ctx.self, ex, tenant, *current->subscription_id,
                                                std::move(done), std::move(msg));
    else
      ask_tenant<domain::payment_request>(ctx.self, ex, tenant, std::move(done), std::move(msg));
  }
};

// GET /api/v2/external-billing/subscriptions
class list_subscriptions_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (auto refused = check_billing_plan(ex))
      return ex->fail(*refused);
    storage::subscription_filter f;
    storage::page_request page;
    const auto& t = ex->target;
    if (auto refused = read_client_filter(t, f.client_id))
      return ex->fail(*refused);
    if (auto refused = read_choice(t, "status", domain::subscription_statuses(), f.status))
      return ex->fail(*refused);
    if (auto refused = read_page(t, page))
      return ex->fail(*refused);
    auto found = storage::list_subscriptions(ctx.db(), ex->principal->tenant_id, f, page);
    respond_page(ex, found, page, render_subscription);
  }
};

// GET /api/v2/external-billing/subscriptions/{id}/
class get_subscription_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (auto refused = check_billing_plan(ex))
      return ex->fail(*refused);
    std::optional<domain::subscription_record> s;
    if (auto id = domain::parse_positive_int(ex->param("subscription_id")))
      s = storage::find_subscription(ctx.db(), ex->principal->tenant_id, *id);
    if (!s)
      return ex->fail(domain::not_found("Subscription not found"));
    json_out out;
    render_subscription(out, *s);
    ex->respond(200, out.take());
  }
};

// GET /api/v2/external-billing/usage
class list_usage_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (auto refused = check_billing_plan(ex))
      return ex->fail(*refused);
    std::optional<int64_t> client;
    storage::page_request page;
    if (auto refused = read_client_filter(ex->target, client))
      return ex->fail(*refused);
    if (auto refused = read_page(ex->target, page))
      return ex->fail(*refused);
    auto found = storage::list_usage(ctx.db(), ex->principal->tenant_id, client, page);
    respond_page(ex, found, page, render_usage);
  }
};

} // namespace

std::shared_ptr<handler> list_payment_requests() {
  return std::make_shared<list_payments_handler>();
}
std::shared_ptr<handler> get_payment_request() {
  return std::make_shared<get_payment_handler>();
}
std::shared_ptr<handler> update_payment_request() {
  return std::make_shared<update_payment_handler>();
}
std::shared_ptr<handler> list_subscriptions() {
  return std::make_shared<list_subscriptions_handler>();
}
std::shared_ptr<handler> get_subscription() {
  return std::make_shared<get_subscription_handler>();
}
std::shared_ptr<handler> list_usage() {
  return std::make_shared<list_usage_handler>();
}

} // namespace vcs::http::handlers
