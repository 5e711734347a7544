#include "domain/billing.hpp"
#include "domain/billing_records.hpp"
#include "domain/global_id.hpp"
#include "domain/plan.hpp"
#include "http/billing_render.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "storage/billing_repository.hpp"

namespace vcs::http::handlers {

namespace {

// Every external billing route needs PRO or above.
bool billing_allowed(const exchange_ptr& ex) {
  if (domain::allows_external_billing(ex->principal->plan))
    return true;
  ex->fail({domain::errc::forbidden,
            "External Billing API access requires a PRO plan. Error Code: external_billing_api"});
  return false;
}

// A query value that must be one of `values`; answers 400 naming it.
// The spec's answer to a billing status or filter value outside its set: the
// message names the value, `valid_values` lists the set.
domain::error invalid_choice(std::string_view name, std::string_view value,
                             const std::vector<std::string>& values) {
  domain::error e{domain::errc::bad_request, "Invalid " + std::string{name} + ": '" +
                                                 std::string{value} +
                                                 "'. Valid values are: " + domain::join(values)};
  e.valid_values = values;
  return e;
}

bool read_choice(const exchange_ptr& ex, const char* name, const std::vector<std::string>& values,
                 std::optional<std::string>& out) {
  auto v = ex->target.param(name);
  if (!v)
    return true;
  if (!domain::one_of(values, *v)) {
    ex->fail(invalid_choice(name, *v, values));
    return false;
  }
  out = *v;
  return true;
}

bool read_client_filter(const exchange_ptr& ex, std::optional<int64_t>& out) {
  auto v = ex->target.param("client_id");
  if (!v)
    return true;
  out = domain::parse_id(domain::entity::client, *v);
  if (!out) {
    ex->fail({domain::errc::bad_request, "Invalid client_id: '" + *v + "'"});
    return false;
  }
  return true;
}

bool read_page(const exchange_ptr& ex, storage::page_request& page) {
  if (auto v = ex->target.param("page")) {
    auto n = parse_whole_number(*v);
    if (!n || *n < 1) {
      ex->fail({domain::errc::bad_request, "Invalid page: '" + *v + "'. Must be an integer >= 1"});
      return false;
    }
    page.page = *n;
  }
  page.page_size = domain::default_page_size;
  if (auto v = ex->target.param("page_size")) {
    auto n = parse_whole_number(*v);
    if (!n || *n < 1 || *n > domain::max_page_size) {
      ex->fail({domain::errc::bad_request,
                "Invalid page_size: '" + *v + "'. Must be an integer from 1 to 100"});
      return false;
    }
    page.page_size = *n;
  }
  return true;
}

template <class T, class Render>
void respond_page(const exchange_ptr& ex, const storage::page_of<T>& page,
                  const storage::page_request& req, Render render) {
  json_out out;
  out.w().StartObject();
  out.key("data");
  out.w().StartArray();
  for (const auto& item : page.items)
    render(out, item);
  out.w().EndArray();
  out.key("meta");
  out.w().StartObject();
  out.field("total", page.total);
  out.field("page", req.page);
  out.field("page_size", req.page_size);
  out.w().EndObject();
  out.w().EndObject();
  ex->respond(200, out.take());
}

// GET /api/v2/external-billing/payment-requests
class list_payments_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (!billing_allowed(ex))
      return;
    storage::payment_filter f;
    storage::page_request page;
    if (!read_client_filter(ex, f.client_id) ||
        !read_choice(ex, "status", domain::payment_statuses(), f.status) ||
        !read_choice(ex, "type", domain::payment_types(), f.type) || !read_page(ex, page))
      return;
    auto found = storage::list_payment_requests(ctx.db(), ex->principal->tenant_id, f, page);
    respond_page(ex, found, page, render_payment);
  }
};

// GET /api/v2/external-billing/payment-requests/{id}/
class get_payment_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (!billing_allowed(ex))
      return;
    std::optional<domain::payment_request> p;
    if (auto id = domain::parse_positive_int(ex->params.at(0)))
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
    if (!billing_allowed(ex))
      return;
    auto tenant = ex->principal->tenant_id;
    std::optional<domain::payment_request> current;
    if (auto id = domain::parse_positive_int(ex->params.at(0)))
      current = storage::find_payment_request(ctx.db(), tenant, *id);
    if (!current)
      return ex->fail(domain::not_found("Payment request not found"));
    auto body = object_body(ex);
    if (!body)
      return;
    domain::field_errors errors;
    object_reader in{*body, errors};
    actors::payment_change change;
    change.payment_id = current->id;
    std::optional<std::string> bad_status;
    if (auto status = in.string("status", true, 16)) {
      if (domain::one_of(domain::payment_statuses(), *status)) {
        change.status = *status;
      } else {
        bad_status = status;
        errors.add("status", "Must be one of " + domain::join(domain::payment_statuses()) + ".");
      }
    }
    change.external_payment_id = in.string("external_payment_id", false, 255);
    if (bad_status)
      return ex->fail(invalid_choice("status", *bad_status, domain::payment_statuses())
                          .with_field_errors(std::move(errors)));
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
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
    if (!billing_allowed(ex))
      return;
    storage::subscription_filter f;
    storage::page_request page;
    if (!read_client_filter(ex, f.client_id) ||
        !read_choice(ex, "status", domain::subscription_statuses(), f.status) ||
        !read_page(ex, page))
      return;
    auto found = storage::list_subscriptions(ctx.db(), ex->principal->tenant_id, f, page);
    respond_page(ex, found, page, render_subscription);
  }
};

// GET /api/v2/external-billing/subscriptions/{id}/
class get_subscription_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (!billing_allowed(ex))
      return;
    std::optional<domain::subscription_record> s;
    if (auto id = domain::parse_positive_int(ex->params.at(0)))
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
    if (!billing_allowed(ex))
      return;
    std::optional<int64_t> client;
    storage::page_request page;
    if (!read_client_filter(ex, client) || !read_page(ex, page))
      return;
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
