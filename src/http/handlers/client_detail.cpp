#include "domain/global_id.hpp"
#include "http/handlers/handlers.hpp"
#include "http/json.hpp"
#include "http/render.hpp"
#include "storage/client_detail_repository.hpp"

#include <chrono>

namespace vcs::http::handlers {

namespace {

using domain::encode_global_id;
using domain::entity;

int64_t unix_seconds(domain::timestamp t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

// A validated decimal text written as a JSON number, exactly.
void number(json_out& out, std::string_view key, const std::string& decimal) {
  out.key(key);
  out.w().RawValue(decimal.data(), decimal.size(), rapidjson::kNumberType);
}

std::string trial_type(int32_t days, const std::string& minutes) {
  bool has_minutes = domain::to_units(minutes, 2) > 0;
  if (days > 0 && has_minutes)
    return "days_and_minutes";
  if (days > 0)
    return "days";
  return has_minutes ? "minutes" : "none";
}

void render_pricing(json_out& out, const domain::subscription_view& s) {
  const auto& p = s.catalog_product;
  std::string currency = p.prices.empty() ? "USD" : p.prices.front().currency;
  std::string interval = "month";
  int64_t flat = 0;
  for (const auto& pr : p.prices) {
    if (pr.interval)
      interval = *pr.interval;
    if (pr.unit_amount && pr.usage_type.value_or("licensed") != "metered")
      flat += domain::to_units(*pr.unit_amount, 4);
  }
  auto subscription_price = domain::from_units(flat, 4, 2);
  out.w().StartObject();
  out.field("pricing_model", p.pricing_model);
  out.key("prices");
  out.w().StartArray();
  for (const auto& pr : p.prices) {
    out.w().StartObject();
    out.field("id", std::to_string(pr.id));
    out.field("processor_price_id", pr.processor_price_id);
    out.field("billing_type", pr.billing_type);
    out.field("usage_type", pr.usage_type);
    number(out, "unit_amount", pr.unit_amount.value_or("0"));
    out.field("currency", pr.currency);
    out.field("interval", pr.interval);
    out.field("active", pr.active);
    out.w().EndObject();
  }
  out.w().EndArray();
  out.field("currency", currency);
  out.field("interval", interval);
  number(out, "subscription_price", subscription_price);
  out.field("subscription_price_formatted", currency + " " + subscription_price);
  out.key("usage_price_tiers");
  out.w().StartArray();
  out.w().EndArray();
  number(out, "min_minutes_included", p.min_minutes_included);
  number(out, "additional_minute_price", p.additional_minute_price);
  out.field("additional_minute_price_formatted",
            currency + " " + p.additional_minute_price + " per minute");
  out.w().EndObject();
}

void render_subscription(json_out& out, const domain::subscription_view& s) {
  const auto& p = s.catalog_product;
  out.w().StartObject();
  out.field("id", std::to_string(s.id));
  out.field("processor_id", s.processor_id);
  out.field("status", s.status);
  out.field("created_at", domain::format_utc(s.created_at));
  out.key("product");
  out.w().StartObject();
  out.field("id", p.processor_product_id);
  out.field("name", p.name);
  out.field("pricing_model", p.pricing_model);
  out.w().EndObject();
  out.key("pricing_details");
  render_pricing(out, s);
  // Minutes of the period count against the trial first while it lasts.
  auto used =
      domain::to_units(s.minutes_included_used, 2) + domain::to_units(s.minutes_billable_used, 2);
  auto assigned = domain::to_units(s.trial_minutes, 2);
  out.key("trial");
  out.w().StartObject();
  out.field("trial_type", trial_type(p.trial_days, s.trial_minutes));
  out.field("trial_days", p.trial_days);
  number(out, "trial_minutes", domain::from_units(assigned, 2));
  if (s.trial_start)
    out.field("trial_start", unix_seconds(*s.trial_start));
  else
    out.null_field("trial_start");
  number(out, "trial_minutes_assigned", domain::from_units(assigned, 2));
  number(out, "trial_minutes_used", domain::from_units(std::min(used, assigned), 2));
  if (s.trial_end)
    out.field("trial_end", domain::format_billing(*s.trial_end));
  else
    out.null_field("trial_end");
  out.w().EndObject();
  out.key("billing_cycle");
  out.w().StartObject();
  out.field("current_period_start", domain::format_billing(s.current_period_start));
  out.field("current_period_end", domain::format_billing(s.current_period_end));
  out.field("billing_cycle_anchor", unix_seconds(s.billing_cycle_anchor));
  out.field("created", unix_seconds(s.created_at));
  out.w().EndObject();
  out.w().EndObject();
}

void render_usage(json_out& out, const domain::subscription_view& s) {
  auto used =
      domain::to_units(s.minutes_included_used, 2) + domain::to_units(s.minutes_billable_used, 2);
  out.w().StartObject();
  out.field("source", "platform");
  number(out, "minutes_used", domain::from_units(used, 2));
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
      render_subscription(out, *d->subscription);
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
    for (const auto& s : d->submissions) {
      out.w().StartObject();
      out.field("id", encode_global_id(entity::form_submission, s.submission.id));
      out.field("form_id", encode_global_id(entity::client_form, s.submission.form_id));
      out.field("form_title", s.form_title);
      out.field("submitted_at", domain::format_utc(s.submission.created_at));
      out.key("response_data");
      out.w().RawValue(s.submission.response_data_json.data(),
                       s.submission.response_data_json.size(), rapidjson::kObjectType);
      out.field("is_test", s.submission.is_test);
      out.w().EndObject();
    }
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
