#pragma once

// The webhook dispatcher's own messages.

#include <caf/allowed_unsafe_message_type.hpp>
#include <cstdint>
#include <optional>
#include <string>

namespace vcs::actors {

// The outcome of one delivery attempt.
struct webhook_result {
  int64_t tenant_id = 0;
  int64_t delivery_id = 0;
  int32_t attempts = 0;
  std::optional<int32_t> status_code;
  std::string error; // empty on a 2xx
  // Dead without an attempt: the endpoint is disabled; not the endpoint's
  // failure.
  bool skipped = false;
  // Pending without an attempt until the tenant has a signing secret; the
  // ciphertext of the one the claim saw, if it could not be opened.
  bool waiting = false;
  std::optional<std::string> unopened_secret;
};

} // namespace vcs::actors

// These types never leave the process.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::webhook_result)
