#pragma once

#include "domain/client.hpp"
#include "domain/tenant.hpp"
#include "http/json.hpp"

#include <optional>
#include <string_view>

namespace vcs::http {

// JSON shapes of domain records, written into an open writer.
void render_tenant_fields(json_out& out, const domain::tenant& t);
// The key as listed; `secret` adds the one-time full key at creation.
void render_api_key(json_out& out, const domain::api_key_info& k,
                    std::optional<std::string_view> secret = std::nullopt);
void render_client(json_out& out, const domain::client& c);

} // namespace vcs::http
