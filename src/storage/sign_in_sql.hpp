#pragma once

// SQL text the sign-in statements of members and client users share
// (storage/sign_in.hpp). Internal to storage.

// The seconds until client address $2 may sign in again, rounded up: only
// once it has spent its $3 failures in a window of $4 seconds that has not
// ended; 0 otherwise.
#define VCS_ADDRESS_WAIT_SQL                                                                       \
  "coalesce((SELECT ceil(extract(epoch FROM a.window_start + make_interval(secs => $4) - "         \
  "now()))::bigint FROM sign_in_addresses a WHERE a.address = $2 AND a.failures >= $3 AND "        \
  "a.window_start > now() - make_interval(secs => $4)), 0)"

// The seconds until an account locked until `locked_until` may try again.
#define VCS_ACCOUNT_WAIT_SQL(locked_until)                                                         \
  "coalesce(ceil(extract(epoch FROM " locked_until " - now())), 0)::bigint"
