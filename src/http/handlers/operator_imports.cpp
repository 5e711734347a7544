// Every tenant's bulk imports for operators, with the node holding each.

#include "domain/global_id.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/readers.hpp"
#include "http/render/render.hpp"
#include "storage/import_job_repository.hpp"
#include "storage/tenant_repository.hpp"

namespace vcs::http::handlers {

namespace {

// {tenant_id, import: the tenant's view of the job, attempts, claimed_by,
// claimed_at}.
void render_cluster_import(json_out& out, const storage::cluster_import_job& j) {
  out.field("tenant_id", encode_global_id(domain::entity::tenant, j.tenant_id));
  out.key("import");
  render_import_job(out, j.job);
  out.field("attempts", j.attempts);
  out.field("claimed_by", j.claimed_by);
  time_field(out, "claimed_at", j.claimed_at);
}

// GET /admin/v1/imports?tenant_id=&status=&limit=: newest first.
class list_cluster_imports_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    std::optional<int64_t> tenant_id;
    std::optional<std::string> status;
    if (auto refused = read_id_param(ex->target, "tenant_id", domain::entity::tenant, tenant_id))
      return ex->fail(*refused);
    if (auto refused = read_choice(ex->target, "status", domain::import_job_statuses(), status))
      return ex->fail(*refused);
    auto limit = limit_param(*ex);
    if (!limit)
      return ex->fail(limit.err());
    if (tenant_id && !storage::find_tenant(ctx.db(), *tenant_id))
      return ex->fail(domain::not_found("Tenant not found"));
    respond_list(ex, "imports", storage::list_cluster_imports(ctx.db(), tenant_id, status, *limit),
                 render_cluster_import);
  }
};

} // namespace

std::shared_ptr<handler> list_cluster_imports() {
  return std::make_shared<list_cluster_imports_handler>();
}

} // namespace vcs::http::handlers
