#include "http/handlers/lookup.hpp"

#include "domain/campaign_errors.hpp"
#include "domain/global_id.hpp"
#include "storage/api_key_repository.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/tenant_repository.hpp"

namespace vcs::http::handlers {

domain::result<domain::tenant> path_tenant(const exchange_ptr& ex, worker_context& ctx) {
  std::optional<domain::tenant> t;
  if (auto id = domain::parse_id(domain::entity::tenant, ex->param("tenant_id")))
    t = storage::find_tenant(ctx.db(), *id);
  if (!t)
    return domain::not_found("Tenant not found");
  return std::move(*t);
}

domain::result<domain::api_key_info> path_api_key(const exchange_ptr& ex, worker_context& ctx) {
  std::optional<domain::api_key_info> k;
  if (auto id = domain::parse_id(domain::entity::api_key, ex->param("key_id")))
    k = storage::find_api_key(ctx.db(), *id);
  if (!k)
    return domain::not_found("API key not found");
  return std::move(*k);
}

domain::result<domain::campaign> path_campaign(const exchange_ptr& ex, worker_context& ctx) {
  std::optional<domain::campaign> c;
  if (auto id = domain::parse_id(domain::entity::campaign, ex->param("campaign_id")))
    c = storage::find_campaign(ctx.db(), ex->principal->tenant_id, *id);
  if (!c)
    return domain::campaign_not_found();
  return std::move(*c);
}

} // namespace vcs::http::handlers
