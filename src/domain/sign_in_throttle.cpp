#include "domain/sign_in_throttle.hpp"

#include "domain/api_key.hpp"

#include <algorithm>
#include <cctype>

namespace vcs::domain {

std::chrono::seconds account_lock_after(int failures) noexcept {
  constexpr std::chrono::seconds first{30}, most{15 * 60};
  if (failures <= free_account_failures)
    return std::chrono::seconds{0};
  const int doublings = std::min(failures - free_account_failures - 1, 8);
  return std::min(most, first * (1 << doublings));
}

std::string sign_in_subject(std::string_view kind, int64_t tenant_id, std::string_view email) {
  std::string folded{email};
  std::transform(folded.begin(), folded.end(), folded.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return hash_api_key(std::string{kind} + "/" + std::to_string(tenant_id) + "/" + folded);
}

std::string sign_in_subject(std::string_view kind, int64_t account_id) {
  return hash_api_key(std::string{kind} + "#" + std::to_string(account_id));
}

} // namespace vcs::domain
