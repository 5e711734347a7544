// A campaign's forecast: what it may call now, why the rest waits, and when
// it may finish (domain/forecast.hpp).

#include "domain/forecast.hpp"
#include "domain/global_id.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lookup.hpp"
#include "http/inputs/json.hpp"
#include "storage/forecast_repository.hpp"

#include <cmath>

namespace vcs::http::handlers {

namespace {

// Rounded to 1/`parts` for people to read; the estimate is no finer.
double rounded(double v, double parts) {
  return std::round(v * parts) / parts;
}

void render_forecast(json_out& out, const domain::campaign& c, const domain::forecast& f,
                     domain::timestamp now) {
  out.field("campaign_id", domain::encode_global_id(domain::entity::campaign, c.id));
  out.field("campaign_status", domain::to_string(c.status));
  out.field("computed_at", domain::format_utc(now));
  out.field("total_leads", f.total_leads);
  out.field("eligible_now", f.eligible_now);
  out.field("open_leads", f.open_leads);
  out.key("skipped");
  out.w().StartObject();
  for (const auto& [state, n] : f.skipped)
    out.field(domain::to_string(state), n);
  out.w().EndObject();
  out.field("concurrency", f.concurrency);
  out.key("average_call_seconds");
  out.w().Double(rounded(f.line_seconds, 10));
  out.field("call_seconds_measured", f.line_seconds_measured);
  out.key("answer_rate");
  out.w().Double(rounded(f.answer_rate, 1000));
  out.field("answer_rate_measured", f.answer_rate_measured);
  out.key("calls_per_hour");
  out.w().Double(rounded(f.calls_per_hour, 10));
  out.field("expected_calls", f.expected_calls);
  out.field("outlook", domain::to_string(f.outlook));
  if (f.estimated_finish_at)
    out.field("estimated_finish_at", domain::format_utc(*f.estimated_finish_at));
  else
    out.null_field("estimated_finish_at");
  out.field("calls_left_at_end", f.calls_left_at_end);
}

// GET /api/v2/voice-campaigns/{campaign_id}/forecast
class get_campaign_forecast_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto c = path_campaign(ex, ctx);
    if (!c)
      return ex->fail(c.err());
    const auto now = domain::now();
    const auto in = storage::read_forecast_inputs(ctx.db(), *c, now);
    const auto f =
        domain::forecast_of(in.leads, in.calls, in.facts, in.policy, in.lines, in.free_lines, now);
    json_out out;
    out.w().StartObject();
    out.field("status", "success");
    out.field("message", "Forecast retrieved successfully");
    out.key("data");
    out.w().StartObject();
    render_forecast(out, *c, f, now);
    out.w().EndObject();
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

} // namespace

std::shared_ptr<handler> get_campaign_forecast() {
  return std::make_shared<get_campaign_forecast_handler>();
}

} // namespace vcs::http::handlers
