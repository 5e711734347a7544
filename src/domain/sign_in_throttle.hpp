#pragma once

// How failed sign-ins slow down guessing, per account name and per client
// address. An attempt is counted (reserved) before its password is hashed,
// atomically, so a throttled guess costs two indexed writes and concurrent
// guesses cannot all be verified; a right password forgets it.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

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

// A sign-in that names an e-mail but no tenant tries the passwords of at
// most this many of the e-mail's members (each an argon2 verification);
// past that it names its tenant.
inline constexpr int member_accounts_tried = 5;

// What an account's failures are counted under: a hash of the account kind
// ("member", "client_user"), the tenant (0 where sign-in names none) and
// the e-mail, case folded. The same for an e-mail that names no account,
// so the throttle answers a known and an unknown one alike.
std::string sign_in_subject(std::string_view kind, int64_t tenant_id, std::string_view email);
// The same for a signed-in account checking its password, by its id.
std::string sign_in_subject(std::string_view kind, int64_t account_id);

} // namespace vcs::domain
