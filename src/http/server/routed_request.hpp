#pragma once

#include "http/inputs/query.hpp"
#include "http/work/router.hpp"

#include <optional>

namespace vcs::http {

// A request routed once, when its header arrives (routes.hpp route_request):
// its decoded target, nothing when the target is malformed, and what the
// listener's table answered for the decoded path. The session sizes the
// body by it; the request worker runs it.
struct routed_request {
  std::optional<target> decoded_target;
  router::match match;

  // The route that takes the request, or null.
  const router::route* route() const noexcept {
    return match.result == router::outcome::matched ? match.found : nullptr;
  }
};

} // namespace vcs::http
