#include "http/render/billing_render.hpp"

namespace vcs::http {

using domain::format_billing;

namespace {

void optional_time(json_out& out, std::string_view key, const std::optional<domain::timestamp>& t) {
  if (t)
    out.field(key, format_billing(*t));
  else
    out.null_field(key);
}

} // namespace

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

} // namespace vcs::http
