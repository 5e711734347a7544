// The tenant's calls: one page of a campaign's calls, or of one lead's.

#include "domain/billing.hpp"
#include "domain/call_state.hpp"
#include "domain/global_id.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/lookup.hpp"
#include "http/handlers/readers.hpp"
#include "storage/call_repository.hpp"

namespace vcs::http::handlers {

namespace {

// An ISO 8601 instant query parameter into `out`.
std::optional<domain::error> read_instant(const target& t, const char* name,
                                          std::optional<domain::timestamp>& out) {
  auto v = t.param(name);
  if (!v)
    return std::nullopt;
  out = domain::parse_iso8601(*v);
  if (!out)
    return domain::error{
        domain::errc::bad_request,
        "Invalid " + std::string{name} + ": '" + *v +
            "'. Must be an ISO 8601 date-time such as 2026-11-24T09:00:00Z, in years 1 to 9999"};
  return std::nullopt;
}

void render_call(json_out& out, const storage::call_record& c) {
  out.w().StartObject();
  out.field("id", std::to_string(c.id));
  out.field("campaign_lead_id", domain::encode_global_id(domain::entity::lead, c.lead_id));
  out.field("phone_number", c.phone_number);
  out.field("attempt", c.attempt);
  out.field("status", c.status);
  out.field("outcome", c.outcome);
  out.field("error", c.error);
  out.field("provider_call_id", c.provider_call_id);
  out.field("started_at", domain::format_utc(c.created_at));
  time_field(out, "ringing_at", c.ringing_at);
  time_field(out, "ended_at", c.ended_at);
  out.field("billed_seconds", c.duration_seconds);
  out.field("billed_minutes",
            domain::from_units(
                domain::billable_hundredths(std::chrono::seconds{c.duration_seconds}), 2, 2));
  out.field("usage_recorded", c.usage_recorded);
  out.w().EndObject();
}

// GET /api/v2/voice-campaigns/{campaign_id}/calls
class list_campaign_calls_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto c = path_campaign(ex, ctx);
    if (!c)
      return ex->fail(c.err());
    storage::page_request page;
    auto f = read_call_filter(ex->target);
    if (!f)
      return ex->fail(f.err());
    if (auto refused = read_page(ex->target, page))
      return ex->fail(*refused);
    respond_page(ex, storage::list_campaign_calls(ctx.db(), c->tenant_id, c->id, *f, page), page,
                 render_call);
  }
};

} // namespace

domain::result<storage::call_filter> read_call_filter(const target& t) {
  storage::call_filter f;
  if (auto v = t.param("campaign_lead_id")) {
    f.lead_id = domain::decode_global_id(domain::entity::lead, *v);
    if (!f.lead_id)
      return domain::error{domain::errc::bad_request, "Invalid campaign_lead_id: '" + *v + "'"};
  }
  for (auto problem : {read_choice(t, "outcome", domain::call_outcome_names(), f.outcome),
                       read_choice(t, "status", domain::call_row_statuses(), f.status),
                       read_instant(t, "from", f.from), read_instant(t, "to", f.to)})
    if (problem)
      return std::move(*problem);
  if (f.from && f.to && *f.from >= *f.to)
    return domain::error{domain::errc::bad_request, "Invalid time window: from must be before to"};
  return f;
}

std::shared_ptr<handler> list_campaign_calls() {
  return std::make_shared<list_campaign_calls_handler>();
}

} // namespace vcs::http::handlers
