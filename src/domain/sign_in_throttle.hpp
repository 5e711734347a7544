#pragma once

// How failed sign-ins slow down guessing, per account and per client
// address. Checked before a password is hashed, so a throttled guess costs
// one indexed read.

#include <chrono>

namespace vcs::domain {

// An account may fail this many times in a row freely; each further
// failure locks it for twice as long as the last, from 30 s up to 15 min.
inline constexpr int free_account_failures = 5;
// How long the account is locked after its `failures`-th failure in a row
// (zero while they are free).
std::chrono::seconds account_lock_after(int failures) noexcept;

// One client address may fail this many times in a window of 15 minutes;
// past that it is refused until the window ends.
inline constexpr int address_failures_per_window = 20;
inline constexpr std::chrono::minutes address_window{15};

} // namespace vcs::domain
