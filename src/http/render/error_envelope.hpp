#pragma once

// Where the spec's error envelope differs by route: some routes answer some
// of their errors with "success": false, and the campaign status route names
// the allowed values `valid_statuses`. A route's handler says so
// (handler::envelope); error_json renders it. The domain's error stays the
// same whichever route carries it.

#include "domain/error.hpp"

#include <string_view>

namespace vcs::http {

struct error_envelope {
  // Whether the body of `e` carries "success": false; never when null.
  bool (*success_false)(const domain::error& e) = nullptr;
  // The key of domain::error::valid_values.
  std::string_view values_key = "valid_values";
};

} // namespace vcs::http
