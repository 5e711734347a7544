#include "domain/global_id.hpp"
#include "http/handlers/handlers.hpp"
#include "http/json.hpp"
#include "http/render.hpp"
#include "http/subscription_view_render.hpp"
#include "storage/client_detail_repository.hpp"

#include <chrono>

namespace vcs::http::handlers {

namespace {

using domain::encode_global_id;
using domain::entity;

void render_usage(json_out& out, const domain::subscription_view& s) {
  auto used =
      domain::to_units(s.minutes_included_used, 2) + domain::to_units(s.minutes_billable_used, 2);
  out.w().StartObject();
  out.field("source", "platform");
  decimal_field(out, "minutes_used", domain::from_units(used, 2));
  out.field("billing_period_start", unix_seconds(s.current_period_start));
  out.field("billing_period_end", unix_seconds(s.current_period_end));
  out.field("meter_id", "minutes:" + std::to_string(s.id));
  out.w().EndObject();
}

void render_campaigns(json_out& out, const std::vector<domain::client_campaign_stats>& list) {
  int64_t leads = 0;
  for (const auto& c : list)
    leads += c.leads_count;
  out.w().StartObject();
  out.field("total_campaigns", static_cast<int64_t>(list.size()));
  out.field("total_leads", leads);
  // Calls are placed by the dialer (a later issue); until then none exist.
  out.field("total_calls", int64_t{0});
  out.key("campaigns");
  out.w().StartArray();
  for (const auto& c : list) {
    out.w().StartObject();
    out.field("id", encode_global_id(entity::campaign, c.id));
    out.field("name", c.name);
    out.field("type", c.type);
    out.field("status", c.status);
    out.field("web_widget_enabled", c.web_widget_enabled);
    out.field("leads_count", c.leads_count);
    out.field("calls_count", int64_t{0});
    out.key("success_metrics");
    out.w().StartObject();
    out.field("answered_leads", c.answered_leads);
    out.key("answer_rate");
    out.w().Double(c.leads_count ? 100.0 * static_cast<double>(c.answered_leads) /
                                       static_cast<double>(c.leads_count)
                                 : 0.0);
    out.w().EndObject();
    out.key("success_evaluation_frequency");
    out.w().StartArray();
    for (const auto& [status, count] : c.call_statuses) {
      out.w().StartObject();
      out.field("status", status);
      out.field("count", count);
      out.key("percentage");
      out.w().Double(c.leads_count
                         ? 100.0 * static_cast<double>(count) / static_cast<double>(c.leads_count)
                         : 0.0);
      out.w().EndObject();
    }
    out.w().EndArray();
    out.w().EndObject();
  }
  out.w().EndArray();
  out.w().EndObject();
}

// GET /api/v2/clients/{client_id}: global or plain id.
class get_client_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    std::optional<domain::client_detail> d;
    if (auto id = domain::parse_id(entity::client, ex->param("client_id")))
      d = storage::read_client_detail(ctx.db(), ex->principal->tenant_id, *id);
    if (!d)
      return ex->fail(domain::not_found("Client not found"));
    json_out out;
    out.w().StartObject();
    out.key("client");
    render_client(out, d->record);
    out.key("account_configurations");
    out.w().StartArray();
    for (const auto& c : d->configurations) {
      out.w().StartObject();
      out.field("asset_group_id", encode_global_id(entity::account_configuration, c.id));
      out.field("name", c.name);
      global_id_field(out, "tenant_voice_provider_id", entity::voice_provider, c.voice_provider_id);
      out.w().EndObject();
    }
    out.w().EndArray();
    out.key("client_access");
    out.w().StartObject();
    for (const auto& [kind, level] : d->access)
      out.field(kind, level);
    out.w().EndObject();
    out.key("subscription");
    if (d->subscription)
      render_subscription_view(out, *d->subscription);
    else
      out.w().Null();
    out.key("usage");
    if (d->subscription)
      render_usage(out, *d->subscription);
    else
      out.w().Null();
    out.key("campaigns");
    render_campaigns(out, d->campaigns);
    out.key("form_submissions");
    out.w().StartArray();
    for (const auto& s : d->submissions)
      render_client_submission(out, s);
    out.w().EndArray();
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

// GET /api/v2/clients/ (an empty id).
class client_id_required_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context&) override {
    ex->fail({domain::errc::bad_request, "Client ID is required"});
  }
};

} // namespace

std::shared_ptr<handler> get_client() {
  return std::make_shared<get_client_handler>();
}

std::shared_ptr<handler> client_id_required() {
  return std::make_shared<client_id_required_handler>();
}

} // namespace vcs::http::handlers
