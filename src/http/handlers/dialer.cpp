// The operator's dialer routes: a dial round now, and a campaign's calls.

#include "domain/campaign_errors.hpp"
#include "domain/global_id.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/call_render.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/lookup.hpp"
#include "storage/call_repository.hpp"
#include "storage/campaign_repository.hpp"

namespace vcs::http::handlers {

namespace {

// POST /admin/v1/dialer/run: one dial round now, as of `now` (default: the
// clock), answered when every campaign's pass is done.
class run_dialer_handler final : public operator_handler {
public:
  std::chrono::milliseconds deadline(const domain::request_deadlines& d) const override {
    return d.answer * 2;
  }
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto as_of = as_of_body(ex, ctx.svc.allow_test_clock);
    if (!as_of)
      return ex->fail(as_of.err());
    const auto now = *as_of;
    ctx.self
        ->request(ex->svc.dialer, deadline(ex->svc.deadlines), actors::dial_atom::value,
                  actors::dial_request{now})
        .then(
            [ex, now](actors::dial_counts& c) {
              json_out out;
              out.w().StartObject();
              out.field("now", domain::format_utc(now));
              out.field("campaigns", c.campaigns);
              out.field("calls_placed", c.calls_placed);
              out.field("failed", c.failed);
              out.w().EndObject();
              ex->respond(200, out.take());
            },
            [ex](caf::error& e) { ex->fail(actors::to_domain_error(e)); });
  }
};

// GET /admin/v1/tenants/{tenant_id}/campaigns/{campaign_id}/calls
class list_calls_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    auto limit = limit_param(*ex);
    if (!limit)
      return ex->fail(limit.err());
    auto id = domain::parse_id(domain::entity::campaign, ex->param("campaign_id"));
    if (!id || !storage::find_campaign(ctx.db(), t->id, *id))
      return ex->fail(domain::campaign_not_found());
    respond_list(ex, "calls", storage::list_calls(ctx.db(), t->id, *id, *limit),
                 [](json_out& out, const storage::call_record& c) {
                   render_call_fields(out, c, false);
                   // The names this list had before it showed the tenant's
                   // call record, kept for the scripts that read them.
                   out.field("lead_id", domain::encode_global_id(domain::entity::lead, c.lead_id));
                   out.field("duration_seconds", c.duration_seconds);
                   out.field("created_at", domain::format_utc(c.created_at));
                 });
  }
};

} // namespace

std::shared_ptr<handler> run_dialer() {
  return std::make_shared<run_dialer_handler>();
}
std::shared_ptr<handler> list_calls() {
  return std::make_shared<list_calls_handler>();
}

} // namespace vcs::http::handlers
