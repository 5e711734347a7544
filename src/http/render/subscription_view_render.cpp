#include "http/render/subscription_view_render.hpp"

#include "domain/billing.hpp"
#include "domain/timestamp.hpp"

#include <chrono>

namespace vcs::http {

int64_t unix_seconds(domain::timestamp t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

// A validated decimal text written as a JSON number, exactly.
void decimal_field(json_out& out, std::string_view key, const std::string& decimal) {
  out.key(key);
  out.w().RawValue(decimal.data(), decimal.size(), rapidjson::kNumberType);
}

namespace {

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
    decimal_field(out, "unit_amount", pr.unit_amount.value_or("0"));
    out.field("currency", pr.currency);
    out.field("interval", pr.interval);
    out.field("active", pr.active);
    out.w().EndObject();
  }
  out.w().EndArray();
  out.field("currency", currency);
  out.field("interval", interval);
  decimal_field(out, "subscription_price", subscription_price);
  out.field("subscription_price_formatted", currency + " " + subscription_price);
  out.key("usage_price_tiers");
  out.w().StartArray();
  out.w().EndArray();
  decimal_field(out, "min_minutes_included", p.min_minutes_included);
  decimal_field(out, "additional_minute_price", p.additional_minute_price);
  out.field("additional_minute_price_formatted",
            currency + " " + p.additional_minute_price + " per minute");
  out.w().EndObject();
}

} // namespace

void render_subscription_view(json_out& out, const domain::subscription_view& s) {
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
  decimal_field(out, "trial_minutes", domain::from_units(assigned, 2));
  if (s.trial_start)
    out.field("trial_start", unix_seconds(*s.trial_start));
  else
    out.null_field("trial_start");
  decimal_field(out, "trial_minutes_assigned", domain::from_units(assigned, 2));
  decimal_field(out, "trial_minutes_used", domain::from_units(std::min(used, assigned), 2));
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

} // namespace vcs::http
