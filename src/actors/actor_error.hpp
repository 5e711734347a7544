#pragma once

#include "domain/error.hpp"

#include <caf/allowed_unsafe_message_type.hpp>
#include <caf/error.hpp>
#include <caf/make_message.hpp>
#include <caf/message.hpp>

// Domain error codes travel as CAF errors; the full envelope rides in the
// error's context.
CAF_ERROR_CODE_ENUM(vcs::domain::errc, "vcs")
// The envelope itself; it never leaves the process.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::error)

namespace vcs::actors {

caf::error make_error(domain::error e);

// Recovers the domain error from a CAF error: our own errors keep their
// envelope; a timeout (outcome unknown) or a dead actor becomes 503;
// anything else 500.
domain::error to_domain_error(const caf::error& e);

} // namespace vcs::actors
