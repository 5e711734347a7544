// The dialer's routes: the do-not-call list (public and operator), and the
// operator's dial run, call list, webhook secret and webhook outbox.

#include "actors/webhook_dispatcher.hpp"
#include "domain/campaign_errors.hpp"
#include "domain/global_id.hpp"
#include "domain/lead.hpp"
#include "domain/webhook_signature.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lookup.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/dialer_repository.hpp"
#include "storage/webhook_repository.hpp"

namespace vcs::http::handlers {

namespace {

constexpr int32_t list_limit_default = 100;
constexpr int32_t list_limit_max = 1000;

// The E.164 number of a do-not-call route, from the body or the path;
// nullopt when the exchange was answered.
std::optional<std::string> dnc_number(const exchange_ptr& ex, std::optional<std::string> text,
                                      bool operator_plane) {
  domain::field_errors errors;
  if (!text)
    errors.add("phone_number", "This field is required.");
  else if (!domain::check_phone(*text).well_formed)
    errors.add("phone_number", "Enter a phone number in E.164 format (+ and 2 to 15 digits).");
  if (errors.empty())
    return text;
  ex->fail(operator_plane ? validation_error(std::move(errors))
                          : domain::invalid_data(std::move(errors)));
  return std::nullopt;
}

void render_dnc(const exchange_ptr& ex, unsigned status, const std::string& number, bool listed,
                const char* message) {
  json_out out;
  out.w().StartObject();
  out.field("status", "success");
  out.field("message", message);
  out.key("data");
  out.w().StartObject();
  out.field("phone_number", number);
  out.field("do_not_call", listed);
  out.w().EndObject();
  out.w().EndObject();
  ex->respond(status, out.take());
}

// The tenant a do-not-call route acts for: the key's, or the path's.
template <class Base> class dnc_handler : public Base {
protected:
  static constexpr bool operator_plane = std::is_same_v<Base, operator_handler>;

  std::optional<int64_t> tenant(const exchange_ptr& ex, worker_context& ctx) {
    if constexpr (operator_plane) {
      auto t = path_tenant(ex, ctx);
      return t ? std::optional<int64_t>{t->id} : std::nullopt;
    } else {
      return ex->principal->tenant_id;
    }
  }

  // The number in the path and the tenant; nullopt when the exchange was
  // answered.
  std::optional<std::pair<int64_t, std::string>> path_target(const exchange_ptr& ex,
                                                             worker_context& ctx) {
    auto number = dnc_number(ex, ex->params.at(operator_plane ? 1 : 0), operator_plane);
    if (!number)
      return std::nullopt;
    auto t = tenant(ex, ctx);
    if (!t)
      return std::nullopt;
    return std::make_pair(*t, std::move(*number));
  }
};

// POST .../do-not-call {phone_number}: 201 when added, 200 when listed before.
template <class Base> class add_dnc_handler final : public dnc_handler<Base> {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return;
    domain::field_errors errors;
    object_reader in{*body, errors};
    auto text = in.string("phone_number", false, 32);
    if (!errors.empty())
      return ex->fail(this->operator_plane ? validation_error(std::move(errors))
                                           : domain::invalid_data(std::move(errors)));
    auto number = dnc_number(ex, text, this->operator_plane);
    if (!number)
      return;
    auto t = this->tenant(ex, ctx);
    if (!t)
      return;
    ask_tenant<bool>(
        ctx.self, ex, *t,
        [ex, n = *number](bool added) {
          render_dnc(ex, added ? 201 : 200, n, true,
                     added ? "Number added to the do-not-call list"
                           : "Number already on the do-not-call list");
        },
        std::make_tuple(actors::create_atom::value, actors::do_not_call_change{*number}));
  }
};

// DELETE .../do-not-call/{phone_number}
template <class Base> class remove_dnc_handler final : public dnc_handler<Base> {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto target = this->path_target(ex, ctx);
    if (!target)
      return;
    auto& [t, number] = *target;
    ask_tenant<bool>(
        ctx.self, ex, t,
        [ex, n = number](bool removed) {
          if (!removed)
            return ex->fail(domain::not_found("Number not on the do-not-call list"));
          render_dnc(ex, 200, n, false, "Number removed from the do-not-call list");
        },
        std::make_tuple(actors::delete_atom::value, actors::do_not_call_change{number}));
  }
};

// GET .../do-not-call/{phone_number}: whether the number is listed.
template <class Base> class check_dnc_handler final : public dnc_handler<Base> {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto target = this->path_target(ex, ctx);
    if (!target)
      return;
    const auto& [t, number] = *target;
    bool listed = storage::is_do_not_call(ctx.db(), t, number);
    render_dnc(ex, 200, number, listed,
               listed ? "Number is on the do-not-call list" : "Number is not on the list");
  }
};

// POST /admin/v1/dialer/run: one dial round now, as of `now` (default: the
// clock), answered when every campaign's pass is done.
class run_dialer_handler final : public operator_handler {
public:
  std::chrono::milliseconds deadline(const domain::request_deadlines& d) const override {
    return d.answer * 2;
  }
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto now = as_of_body(ex);
    if (!now)
      return;
    ctx.self
        ->request(ex->svc.dialer, deadline(ex->svc.deadlines), actors::dial_atom::value,
                  actors::dial_request{*now})
        .then(
            [ex, now](actors::dial_counts& c) {
              json_out out;
              out.w().StartObject();
              out.field("now", domain::format_utc(*now));
              out.field("campaigns", c.campaigns);
              out.field("calls_placed", c.calls_placed);
              out.field("failed", c.failed);
              out.w().EndObject();
              ex->respond(200, out.take());
            },
            [ex](caf::error& e) { ex->fail(actors::to_domain_error(e)); });
  }
};

void time_field(json_out& out, std::string_view name, std::optional<domain::timestamp> t) {
  if (t)
    out.field(name, domain::format_utc(*t));
  else
    out.null_field(name);
}

// 200 {<key>: [render(item)...]}.
template <class Items, class Render>
void respond_list(const exchange_ptr& ex, std::string_view key, const Items& items, Render render) {
  json_out out;
  out.w().StartObject();
  out.key(key);
  out.w().StartArray();
  for (const auto& item : items) {
    out.w().StartObject();
    render(out, item);
    out.w().EndObject();
  }
  out.w().EndArray();
  out.w().EndObject();
  ex->respond(200, out.take());
}

std::optional<int32_t> limit_param(const exchange_ptr& ex) {
  auto text = ex->target.param("limit");
  if (!text)
    return list_limit_default;
  auto n = parse_whole_number(*text);
  if (!n || *n < 1 || *n > list_limit_max) {
    ex->fail(domain::error{domain::errc::bad_request,
                           "limit must be an integer from 1 to " + std::to_string(list_limit_max)});
    return std::nullopt;
  }
  return static_cast<int32_t>(*n);
}

// GET /admin/v1/tenants/{tenant_id}/campaigns/{campaign_id}/calls
class list_calls_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    if (!t)
      return;
    auto limit = limit_param(ex);
    if (!limit)
      return;
    auto id = domain::parse_id(domain::entity::campaign, ex->params.at(1));
    if (!id || !storage::find_campaign(ctx.db(), t->id, *id))
      return ex->fail(domain::campaign_not_found());
    respond_list(ex, "calls", storage::list_calls(ctx.db(), t->id, *id, *limit),
                 [](json_out& out, const storage::call_record& c) {
                   out.field("id", std::to_string(c.id));
                   out.field("lead_id", domain::encode_global_id(domain::entity::lead, c.lead_id));
                   out.field("phone_number", c.phone_number);
                   out.field("attempt", c.attempt);
                   out.field("status", c.status);
                   out.field("outcome", c.outcome);
                   out.field("error", c.error);
                   out.field("duration_seconds", c.duration_seconds);
                   out.field("usage_recorded", c.usage_recorded);
                   out.field("created_at", domain::format_utc(c.created_at));
                   time_field(out, "ended_at", c.ended_at);
                 });
  }
};

// POST /admin/v1/tenants/{tenant_id}/webhook-secret: a new signing secret,
// shown once (stored sealed); deliveries are signed with it from now on.
class rotate_secret_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    if (!t)
      return;
    auto secret = domain::new_webhook_secret();
    actors::webhook_secret_set msg{
        ex->svc.secrets->seal(secret, actors::webhook_secret_binding(t->id))};
    ask_tenant<bool>(
        ctx.self, ex, t->id,
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
    if (!t)
      return;
    auto status = ex->target.param("status");
    if (status && *status != "pending" && *status != "delivered" && *status != "dead") {
      domain::error e{domain::errc::bad_request, "Invalid status: " + *status};
      e.valid_values = std::vector<std::string>{"pending", "delivered", "dead"};
      return ex->fail(e);
    }
    auto limit = limit_param(ex);
    if (!limit)
      return;
    respond_list(ex, "deliveries", storage::list_webhooks(ctx.db(), t->id, status, *limit),
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
    if (!t)
      return;
    auto id = domain::parse_positive_int(ex->params.at(1));
    if (!id)
      return ex->fail(domain::not_found("Webhook delivery not found"));
    ask_tenant<bool>(
        ctx.self, ex, t->id,
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

std::shared_ptr<handler> add_do_not_call() {
  return std::make_shared<add_dnc_handler<handler>>();
}
std::shared_ptr<handler> remove_do_not_call() {
  return std::make_shared<remove_dnc_handler<handler>>();
}
std::shared_ptr<handler> check_do_not_call() {
  return std::make_shared<check_dnc_handler<handler>>();
}
std::shared_ptr<handler> operator_add_do_not_call() {
  return std::make_shared<add_dnc_handler<operator_handler>>();
}
std::shared_ptr<handler> operator_remove_do_not_call() {
  return std::make_shared<remove_dnc_handler<operator_handler>>();
}
std::shared_ptr<handler> operator_check_do_not_call() {
  return std::make_shared<check_dnc_handler<operator_handler>>();
}
std::shared_ptr<handler> run_dialer() {
  return std::make_shared<run_dialer_handler>();
}
std::shared_ptr<handler> list_calls() {
  return std::make_shared<list_calls_handler>();
}
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
