#include "domain/plan.hpp"

#include <array>

namespace vcs::domain {
namespace {

constexpr std::array<plan, 4> all_plans{plan::free, plan::starter, plan::pro, plan::enterprise};

} // namespace

std::optional<plan> parse_plan(std::string_view text) noexcept {
  for (const plan p : all_plans)
    if (to_string(p) == text)
      return p;
  return std::nullopt;
}

std::string_view to_string(plan p) noexcept {
  switch (p) {
  case plan::free:
    return "FREE";
  case plan::starter:
    return "STARTER";
  case plan::pro:
    return "PRO";
  case plan::enterprise:
    return "ENTERPRISE";
  }
  return {};
}

int32_t default_campaign_limit(plan p) noexcept {
  switch (p) {
  case plan::free:
    return 3;
  case plan::starter:
    return 10;
  case plan::pro:
    return 100;
  case plan::enterprise:
    return 1000;
  }
  return 0;
}

bool allows_external_billing(plan p) noexcept {
  return p >= plan::pro;
}

request_rate default_request_rate(plan p) noexcept {
  switch (p) {
  case plan::free:
    return {50, 100};
  case plan::starter:
    return {200, 400};
  case plan::pro:
    return {2'000, 4'000};
  case plan::enterprise:
    return {10'000, 20'000};
  }
  return {50, 100};
}

} // namespace vcs::domain
