#include "domain/billing.hpp"
#include "domain/billing_records.hpp"
#include "domain/global_id.hpp"
#include "domain/plan.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "storage/billing_repository.hpp"

namespace vcs::http::handlers {

namespace {

using domain::format_billing;

// Every external billing route needs PRO or above.
bool billing_allowed(const exchange_ptr& ex) {
  if (domain::allows_external_billing(ex->principal->plan))
    return true;
  ex->fail({domain::errc::forbidden,
            "External Billing API access requires a PRO plan. Error Code: external_billing_api"});
  return false;
}

// A query value that must be one of `values`; answers 400 naming it.
bool read_choice(const exchange_ptr& ex, const char* name, const std::vector<std::string>& values,
                 std::optional<std::string>& out) {
  auto v = ex->target.param(name);
  if (!v)
    return true;
  if (!domain::one_of(values, *v)) {
    domain::error e{domain::errc::bad_request, "Invalid " + std::string{name} + ": '" + *v +
                                                   "'. Valid values are: " + domain::join(values)};
    e.valid_values = values;
    ex->fail(e);
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

void optional_time(json_out& out, std::string_view key, const std::optional<domain::timestamp>& t) {
  if (t)
    out.field(key, format_billing(*t));
  else
    out.null_field(key);
}

void render_payment(json_out& out, const domain::payment_request& p) {
  out.w().StartObject();
  out.field("id", std::to_string(p.id));
  out.field("client_id", std::to_string(p.client_id));
  out.field("client_name", p.client_name);
  if (p.subscription_id)
    out.field("subscription_id", std::to_string(*p.subscription_id));
  else
    out.null_field("subscription_id");
  out.field("status", p.status);
  out.field("type", p.type);
  out.field("amount", p.amount);
  out.field("currency", p.currency);
  out.field("due_date", format_billing(p.due_date));
  optional_time(out, "grace_period_ends_at", p.grace_period_ends_at);
  optional_time(out, "paid_at", p.paid_at);
  out.field("external_payment_id", p.external_payment_id);
  out.field("notes", p.notes);
  out.key("line_items");
  out.w().RawValue(p.line_items_json.data(), p.line_items_json.size(), rapidjson::kArrayType);
  out.field("period_start", format_billing(p.period_start));
  out.field("period_end", format_billing(p.period_end));
  out.field("created_at", format_billing(p.created_at));
  out.field("updated_at", format_billing(p.updated_at));
  out.w().EndObject();
}

void render_subscription(json_out& out, const domain::subscription_record& s) {
  out.w().StartObject();
  out.field("id", std::to_string(s.id));
  out.field("client_id", std::to_string(s.client_id));
  out.field("client_name", s.client_name);
  out.field("product_id", s.product_id);
  out.field("product_name", s.product_name);
  out.field("status", s.status);
  out.field("current_period_start", format_billing(s.current_period_start));
  out.field("current_period_end", format_billing(s.current_period_end));
  out.field("created_at", format_billing(s.created_at));
  out.field("updated_at", format_billing(s.updated_at));
  out.w().EndObject();
}

void render_usage(json_out& out, const domain::usage_record& u) {
  out.w().StartObject();
  out.field("client_id", std::to_string(u.client_id));
  out.field("client_name", u.client_name);
  out.field("subscription_id", std::to_string(u.subscription_id));
  out.field("minutes_included_limit", u.minutes_included_limit);
  out.field("minutes_included_used", u.minutes_included_used);
  out.field("minutes_addon_balance", u.minutes_addon_balance);
  out.field("minutes_billable_used", u.minutes_billable_used);
  out.field("current_period_start", format_billing(u.current_period_start));
  out.field("current_period_end", format_billing(u.current_period_end));
  out.field("updated_at", format_billing(u.updated_at));
  out.w().EndObject();
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

// POST /admin/v1/payment-requests: issued to a client, through its
// tenant's actor.
class create_payment_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return;
    domain::field_errors errors;
    object_reader in{*body, errors};
    domain::payment_request p;
    std::optional<int64_t> client;
    if (auto ref = in.string("client_id", true, 128)) {
      client = domain::parse_id(domain::entity::client, *ref);
      if (!client)
        errors.add("client_id", "Not a client id.");
    }
    if (auto ref = in.string("subscription_id", false, 32)) {
      p.subscription_id = domain::parse_positive_int(*ref);
      if (!p.subscription_id)
        errors.add("subscription_id", "Not a subscription id.");
    }
    if (auto type = in.string("type", true, 16)) {
      if (domain::one_of(domain::payment_types(), *type))
        p.type = *type;
      else
        errors.add("type", "Must be one of " + domain::join(domain::payment_types()) + ".");
    }
    auto amount = in.decimal("amount", true, 2);
    auto currency = in.string("currency", true, 3);
    if (currency && !domain::is_currency(*currency))
      errors.add("currency", "Enter a 3-letter currency code.");
    auto time = [&](const char* name, bool required) -> std::optional<domain::timestamp> {
      auto text = in.string(name, required, 40);
      if (!text)
        return std::nullopt;
      auto t = domain::parse_iso8601(*text);
      if (!t)
        errors.add(name, "Enter an ISO 8601 timestamp.");
      return t;
    };
    auto due = time("due_date", true);
    p.grace_period_ends_at = time("grace_period_ends_at", false);
    auto start = time("period_start", true);
    auto end = time("period_end", true);
    if (start && end && *end < *start)
      errors.add("period_end", "Must not be before period_start.");
    p.notes = in.string("notes", false, 2000);
    if (auto items = body->FindMember("line_items");
        items != body->MemberEnd() && !items->value.IsNull()) {
      if (!items->value.IsArray()) {
        errors.add("line_items", "Must be a list.");
      } else {
        rapidjson::StringBuffer buf;
        json_writer w{buf};
        items->value.Accept(w);
        p.line_items_json.assign(buf.GetString(), buf.GetSize());
      }
    }
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    auto tenant = storage::tenant_of_client(ctx.db(), *client);
    if (!tenant)
      return ex->fail(domain::not_found("Client not found"));
    p.client_id = *client;
    p.amount = *amount;
    p.currency = *currency;
    p.due_date = *due;
    p.period_start = *start;
    p.period_end = *end;
    ask_tenant<domain::payment_request>(
        ctx.self, ex, *tenant,
        [ex](domain::payment_request& created) {
          json_out out;
          render_payment(out, created);
          ex->respond(201, out.take());
        },
        std::make_tuple(actors::create_atom::value, std::move(p)));
  }
};

} // namespace

std::shared_ptr<handler> list_payment_requests() {
  return std::make_shared<list_payments_handler>();
}
std::shared_ptr<handler> get_payment_request() {
  return std::make_shared<get_payment_handler>();
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
std::shared_ptr<handler> create_payment_request() {
  return std::make_shared<create_payment_handler>();
}

} // namespace vcs::http::handlers
