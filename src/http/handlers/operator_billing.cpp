#include "actors/actor_error.hpp"
#include "domain/billing.hpp"
#include "domain/billing_records.hpp"
#include "domain/global_id.hpp"
#include "domain/subscription_rules.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/render/billing_render.hpp"
#include "storage/billing_repository.hpp"
#include "storage/subscription_repository.hpp"

namespace vcs::http::handlers {

namespace {

// POST /admin/v1/payment-requests: issued to a client, through its
// subscription's actor when linked to one, else its tenant's.
class create_payment_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    domain::payment_request p;
    auto client = client_reference(in, errors);
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
    domain::validate_payment_request(
        {.type = p.type,
         .names_subscription = p.subscription_id.has_value() ||
                               (in.has("subscription_id") && !in.is_null("subscription_id")),
         .has_grace_period = p.grace_period_ends_at.has_value(),
         .period_start = start,
         .period_end = end},
        errors);
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
    std::function<void(domain::payment_request&)> done = [ex](domain::payment_request& created) {
      json_out out;
      render_payment(out, created);
      ex->respond(201, out.take());
    };
    auto subscription = p.subscription_id;
    if (!subscription)
      return ask_tenant<domain::payment_request>(
          ctx.self, ex, *tenant, std::move(done),
          std::make_tuple(actors::create_atom::value, std::move(p)));
    if (!storage::subscription_of_client(ctx.db(), *tenant, *client, *subscription))
      return ex->fail(domain::not_found("Subscription not found"));
    ask_subscription<domain::payment_request>(
        ctx.self, ex, *tenant, *subscription, std::move(done),
        std::make_tuple(actors::create_atom::value, std::move(p)));
  }
};

// POST /admin/v1/usage and /admin/v1/usage/addon: minutes for the client's
// subscription (the one not canceled), through its actor.
template <class Atom> class minutes_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    auto client = client_reference(in, errors);
    auto minutes = in.decimal("minutes", true, 2);
    int64_t hundredths = minutes ? domain::to_units(*minutes, 2) : 0;
    if (minutes && hundredths == 0)
      errors.add("minutes", "Must be greater than 0.");
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    auto sub = storage::live_subscription_of_client(ctx.db(), *client);
    if (!sub) {
      if (!storage::tenant_of_client(ctx.db(), *client))
        return ex->fail(domain::not_found("Client not found"));
      return ex->fail(domain::not_found("Subscription not found"));
    }
    ask_subscription<domain::usage_record>(
        ctx.self, ex, sub->tenant_id, sub->subscription_id,
        [ex](domain::usage_record& u) {
          json_out out;
          render_usage(out, u);
          ex->respond(200, out.take());
        },
        std::make_tuple(Atom::value, actors::minutes_change{hundredths}));
  }
};

void render_counts(json_out& out, domain::timestamp now, const actors::sweep_counts& c) {
  out.w().StartObject();
  out.field("now", domain::format_utc(now));
  out.field("subscriptions", c.subscriptions);
  out.field("overdue", c.overdue);
  out.field("past_due", c.past_due);
  out.field("blocked", c.blocked);
  out.field("renewed", c.renewed);
  out.field("subscription_requests", c.subscription_requests);
  out.field("overage_requests", c.overage_requests);
  out.field("campaigns_paused", c.campaigns_paused);
  out.field("failed", c.failed);
  out.w().EndObject();
}

// POST /admin/v1/billing/sweep: the platform sweep now, as of `now`.
class sweep_handler final : public operator_handler {
public:
  // A sweep may wait for another node's to end, then walks every
  // subscription with something due.
  std::chrono::milliseconds deadline(const domain::request_deadlines& d) const override {
    return d.answer * 4;
  }
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto as_of = as_of_body(ex, ctx.svc.allow_test_clock);
    if (!as_of)
      return ex->fail(as_of.err());
    const auto now = *as_of;
    ctx.self
        ->request(ex->svc.billing, deadline(ex->svc.deadlines), actors::sweep_atom::value,
                  actors::sweep_request{now})
        .then(
            [ex, now](actors::sweep_counts& c) {
              json_out out;
              render_counts(out, now, c);
              ex->respond(200, out.take());
            },
            [ex](caf::error& e) { ex->fail(actors::to_domain_error(e)); });
  }
};

} // namespace

std::shared_ptr<handler> create_payment_request() {
  return std::make_shared<create_payment_handler>();
}
std::shared_ptr<handler> record_usage() {
  return std::make_shared<minutes_handler<actors::usage_atom>>();
}
std::shared_ptr<handler> add_addon_minutes() {
  return std::make_shared<minutes_handler<actors::addon_atom>>();
}
std::shared_ptr<handler> run_billing_sweep() {
  return std::make_shared<sweep_handler>();
}

} // namespace vcs::http::handlers
