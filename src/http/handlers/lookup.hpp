#pragma once

#include "domain/campaign.hpp"
#include "domain/error.hpp"
#include "domain/tenant.hpp"
#include "http/work/handler.hpp"

namespace vcs::http::handlers {

// The tenant of the {tenant_id} path parameter (integer or global id), or
// 404 `Tenant not found` when there is none.
domain::result<domain::tenant> path_tenant(const exchange_ptr& ex, worker_context& ctx);

// The API key of the {key_id} path parameter, or 404 `API key not found`
// when there is none.
domain::result<domain::api_key_info> path_api_key(const exchange_ptr& ex, worker_context& ctx);

// The {campaign_id} path parameter (global or integer id) of a campaign the
// key's tenant owns, or 404 `Campaign not found` otherwise.
domain::result<domain::campaign> path_campaign(const exchange_ptr& ex, worker_context& ctx);

} // namespace vcs::http::handlers
