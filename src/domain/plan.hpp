#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace vcs::domain {

// A tenant's subscription plan with the platform, in ascending order.
enum class plan : uint8_t { free, starter, pro, enterprise };

// "FREE", "STARTER", "PRO", "ENTERPRISE" (exact, upper case).
std::optional<plan> parse_plan(std::string_view text) noexcept;
std::string_view to_string(plan p) noexcept;

// Campaigns a tenant may hold when no per-tenant override is set:
// FREE 3, STARTER 10, PRO 100, ENTERPRISE 1000
// (docs/decisions/api-basics.md#plans).
int32_t default_campaign_limit(plan p) noexcept;

// Requests a second one tenant may make to one node, and the burst it may
// save up: FREE 50, STARTER 200, PRO 2,000, ENTERPRISE 10,000 a second,
// bursts of twice that
// (docs/decisions/limits-and-sharing.md#sharing-the-service-safely).
struct request_rate {
  int32_t per_second = 0;
  int32_t burst = 0;
};
request_rate default_request_rate(plan p) noexcept;

// External billing endpoints need PRO or above.
bool allows_external_billing(plan p) noexcept;

} // namespace vcs::domain
