#pragma once

#include "domain/tenant.hpp"
#include "http/handler.hpp"

#include <optional>

namespace vcs::http::handlers {

// The tenant named by the first path parameter (integer or global id); when
// there is none, the exchange is answered 404 `Tenant not found`.
std::optional<domain::tenant> path_tenant(const exchange_ptr& ex, worker_context& ctx);

// The API key named by the first path parameter; 404 `API key not found`
// otherwise.
std::optional<domain::api_key_info> path_api_key(const exchange_ptr& ex, worker_context& ctx);

} // namespace vcs::http::handlers
