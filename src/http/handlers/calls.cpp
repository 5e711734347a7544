// The tenant's calls: one page of a campaign's calls, or of one lead's.

#include "domain/call_state.hpp"
#include "domain/global_id.hpp"
#include "http/handlers/call_render.hpp"
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

void render_listed_call(json_out& out, const storage::call_record& c) {
  out.w().StartObject();
  render_call_fields(out, c, false);
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
                 render_listed_call);
  }
};

// GET /api/v2/voice-campaigns/{campaign_id}/calls/{call_id}
class get_campaign_call_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto c = path_campaign(ex, ctx);
    if (!c)
      return ex->fail(c.err());
    auto id = domain::parse_positive_int(ex->param("call_id"));
    auto call = id ? storage::find_campaign_call(ctx.db(), c->tenant_id, c->id, *id) : std::nullopt;
    if (!call)
      return ex->fail(domain::not_found("Call not found"));
    json_out out;
    out.w().StartObject();
    out.field("status", "success");
    out.field("message", "Call retrieved successfully");
    out.key("data");
    out.w().StartObject();
    render_call_fields(out, *call, true);
    out.w().EndObject();
    out.w().EndObject();
    ex->respond(200, out.take());
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

std::shared_ptr<handler> get_campaign_call() {
  return std::make_shared<get_campaign_call_handler>();
}

} // namespace vcs::http::handlers
