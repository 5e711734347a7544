#pragma once

// The failure breaker of a campaign: when its provider fails too many of
// its last calls (a provider that refuses every call, out of credit or
// down), the campaign pauses with the reason `failure_breaker` instead of
// spending its leads' attempts and its neighbours' lines on calls that
// cannot succeed. A person resumes it.

#include "domain/campaign.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

struct failure_breaker {
  // The last ended calls looked at; 0 turns the breaker off.
  int32_t calls = 20;
  // The share of them, in percent, that trips it.
  int32_t percent = 50;
};

// The campaign's breaker: its fields, the defaults where null.
failure_breaker breaker_of(const campaign& c);

// A call its provider failed: refused before ringing (ABANDONED), or ended
// with the outcome `failed` (a provider error, or a call the provider
// lost). A busy line, no answer or an invalid number is the callee's, not
// the provider's.
bool is_provider_failure(std::string_view call_status, const std::optional<std::string>& outcome);

// Whether `failures` among the last `ended` calls trip the breaker: it is
// on, its window is full, and the failures reach its share of the window.
bool breaker_trips(const failure_breaker& b, int64_t ended, int64_t failures);

} // namespace vcs::domain
