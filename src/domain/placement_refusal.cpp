#include "domain/placement_refusal.hpp"

namespace vcs::domain {

placement_refusal refusal_of_status(int http_status) noexcept {
  if (http_status == 429)
    return placement_refusal::busy;
  if (http_status == 401 || http_status == 403)
    return placement_refusal::credentials;
  return placement_refusal::failed;
}

std::string_view to_string(placement_refusal r) noexcept {
  switch (r) {
  case placement_refusal::busy:
    return "busy";
  case placement_refusal::credentials:
    return "credentials";
  case placement_refusal::failed:
    break;
  }
  return "failed";
}

} // namespace vcs::domain
