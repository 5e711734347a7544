#pragma once

// Dialing: the scheduler's rounds and the provider's reports on calls.

#include "domain/call_result.hpp"
#include "domain/call_state.hpp"
#include "domain/placement_refusal.hpp"
#include "domain/timestamp.hpp"

#include <caf/allowed_unsafe_message_type.hpp>
#include <cstdint>
#include <string>

namespace vcs::actors {

// The time a dial pass acts as (the clock, or an operator's given time).
struct dial_request {
  domain::timestamp now{};
};

// What a dial pass did.
struct dial_counts {
  int64_t campaigns = 0;    // campaigns that ran a dial pass
  int64_t calls_placed = 0; // calls reserved and handed to the provider
  int64_t failed = 0;       // campaign passes that failed (retried later)
};

// What a voice provider reports about one call.
struct call_update {
  // accepted: the provider took the call and named it (provider_call_id).
  enum class kind : uint8_t { accepted, ringing, ended, refused };
  kind what = kind::ended;
  int64_t call_id = 0;
  std::string provider_call_id;
  domain::call_outcome outcome = domain::call_outcome::failed;
  int32_t duration_seconds = 0;
  // Why the provider refused the call, or why it was ended without an
  // outcome from the provider.
  std::string error;
  // How the provider refused it (refused only).
  domain::placement_refusal refusal = domain::placement_refusal::failed;
  // What the provider reported at the end (ended only).
  domain::call_result result;
  // A report made in this process (the simulated provider's, a gateway's
  // answer) has no provider to send it again when its write fails (the
  // database failing over): the campaign resends it, once a second, this
  // many times at most. A provider's callback keeps 0: the provider
  // retries it.
  int32_t resends_left = 0;
  static constexpr int32_t in_process_resends = 60;
};

} // namespace vcs::actors

// These types never leave the process.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::dial_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::dial_counts)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::call_update)
