#include "domain/sign_in_throttle.hpp"

#include <algorithm>

namespace vcs::domain {

std::chrono::seconds account_lock_after(int failures) noexcept {
  constexpr std::chrono::seconds first{30}, most{15 * 60};
  if (failures <= free_account_failures)
    return std::chrono::seconds{0};
  const int doublings = std::min(failures - free_account_failures - 1, 8);
  return std::min(most, first * (1 << doublings));
}

} // namespace vcs::domain
