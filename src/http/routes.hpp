#pragma once

#include "http/router.hpp"

namespace vcs::http {

// Every route of the public listener.
router public_routes();

// Every route of the operator listener.
router operator_routes();

} // namespace vcs::http
