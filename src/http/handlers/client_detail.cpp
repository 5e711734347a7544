#include "domain/call_result.hpp"
#include "domain/global_id.hpp"
#include "http/handlers/handlers.hpp"
#include "http/inputs/json.hpp"
#include "http/render/render.hpp"
#include "http/render/subscription_view_render.hpp"
#include "storage/client_detail_repository.hpp"

#include <algorithm>
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

// part / whole in percent, 0 for an empty whole.
double percent(int64_t part, int64_t whole) {
  return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// The ended calls per verdict of their success evaluation, largest first
// (equal counts in the order success, failure, unclear), with their share
// of the evaluated calls.
void render_evaluations(json_out& out, const domain::client_campaign_stats& c) {
  using domain::evaluation_verdict;
  std::vector<std::pair<evaluation_verdict, int64_t>> counts{
      {evaluation_verdict::success, c.evaluations[0]},
      {evaluation_verdict::failure, c.evaluations[1]},
      {evaluation_verdict::unclear, c.evaluations[2]}};
  std::stable_sort(counts.begin(), counts.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  const int64_t evaluated = c.evaluations[0] + c.evaluations[1] + c.evaluations[2];
  out.w().StartArray();
  for (const auto& [verdict, count] : counts) {
    if (count == 0)
      continue;
    out.w().StartObject();
    out.field("status", domain::to_string(verdict));
    out.field("count", count);
    out.key("percentage");
    out.w().Double(percent(count, evaluated));
    out.w().EndObject();
  }
  out.w().EndArray();
}

void render_campaigns(json_out& out, const std::vector<domain::client_campaign_stats>& list) {
  int64_t leads = 0;
  int64_t calls = 0;
  for (const auto& c : list) {
    leads += c.leads_count;
    calls += c.calls_count;
  }
  out.w().StartObject();
  out.field("total_campaigns", static_cast<int64_t>(list.size()));
  out.field("total_leads", leads);
  out.field("total_calls", calls);
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
    out.field("calls_count", c.calls_count);
    const int64_t evaluated = c.evaluations[0] + c.evaluations[1] + c.evaluations[2];
    out.key("success_metrics");
    out.w().StartObject();
    out.field("answered_leads", c.answered_leads);
    out.key("answer_rate");
    out.w().Double(percent(c.answered_leads, c.leads_count));
    out.field("evaluated_calls", evaluated);
    out.field("successful_calls", c.evaluations[0]);
    out.key("success_rate");
    out.w().Double(percent(c.evaluations[0], evaluated));
    out.w().EndObject();
    out.key("success_evaluation_frequency");
    render_evaluations(out, c);
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
    // A key held to some campaigns sees only their statistics.
    std::erase_if(d->campaigns, [&](const domain::client_campaign_stats& c) {
      return !ex->principal->scope.reaches_campaign(c.id);
    });
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
