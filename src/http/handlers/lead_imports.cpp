// A campaign's bulk imports: their progress and the items they rejected.

#include "domain/campaign_errors.hpp"
#include "domain/global_id.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lead_support.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/readers.hpp"
#include "http/render/render.hpp"
#include "storage/import_job_repository.hpp"

namespace vcs::http::handlers {

namespace {

// The {import_id} of the path's campaign, or 404: `Campaign not found`
// when the tenant has no such campaign, `Import not found` otherwise.
domain::result<domain::import_job> path_import(const exchange_ptr& ex, worker_context& ctx) {
  auto c = path_lead_campaign(ex);
  if (!c)
    return c.err();
  std::optional<domain::import_job> job;
  if (auto id = domain::parse_id(domain::entity::lead_import, ex->param("import_id")))
    job = storage::find_import_job(ctx.db(), c->tenant_id, c->campaign_id, *id);
  if (!job && !storage::campaign_lead_total(ctx.db(), c->tenant_id, c->campaign_id))
    return domain::campaign_not_found();
  if (!job)
    return domain::not_found("Import not found");
  return std::move(*job);
}

// GET /api/v2/voice-campaigns/{campaign_id}/leads/imports
class list_imports_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto c = path_lead_campaign(ex);
    if (!c)
      return ex->fail(c.err());
    std::optional<std::string> status;
    storage::page_request page;
    if (auto refused = read_choice(ex->target, "status", domain::import_job_statuses(), status))
      return ex->fail(*refused);
    if (auto refused = read_page(ex->target, page))
      return ex->fail(*refused);
    if (!storage::campaign_lead_total(ctx.db(), c->tenant_id, c->campaign_id))
      return ex->fail(domain::campaign_not_found());
    auto found = storage::list_import_jobs(ctx.db(), c->tenant_id, c->campaign_id, status, page);
    respond_page(ex, found, page, render_import_job);
  }
};

// GET /api/v2/voice-campaigns/{campaign_id}/leads/imports/{import_id}
class get_import_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto job = path_import(ex, ctx);
    if (!job)
      return ex->fail(job.err());
    json_out out;
    render_import_job(out, *job);
    ex->respond(200, out.take());
  }
};

// GET /api/v2/voice-campaigns/{campaign_id}/leads/imports/{import_id}/rejected-rows
class list_rejected_rows_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    std::optional<std::string> reason;
    storage::page_request page;
    if (auto refused = read_choice(ex->target, "reason", domain::rejection_reason_names(), reason))
      return ex->fail(*refused);
    if (auto refused = read_page(ex->target, page))
      return ex->fail(*refused);
    auto job = path_import(ex, ctx);
    if (!job)
      return ex->fail(job.err());
    std::optional<domain::rejection_reason> wanted;
    if (reason)
      wanted = domain::parse_rejection_reason(*reason);
    auto found = storage::list_import_rejections(ctx.db(), job->id, wanted, page);
    respond_page(ex, found, page, [](json_out& out, const domain::import_rejection& r) {
      out.w().StartObject();
      out.field("index", r.index);
      out.field("phone_number", r.phone_number);
      out.field("reason", domain::to_string(r.reason));
      out.field("message", r.message);
      out.w().EndObject();
    });
  }
};

} // namespace

std::shared_ptr<handler> list_lead_imports() {
  return std::make_shared<list_imports_handler>();
}
std::shared_ptr<handler> get_lead_import() {
  return std::make_shared<get_import_handler>();
}
std::shared_ptr<handler> list_import_rejections() {
  return std::make_shared<list_rejected_rows_handler>();
}

} // namespace vcs::http::handlers
