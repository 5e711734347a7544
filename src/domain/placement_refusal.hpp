#pragma once

// How a voice provider refused to place a call, read from its HTTP answer,
// and what the dialer does about it:
//   busy         429, its rate or concurrency limit: the lead gets its
//                attempt back and waits; the failure breaker does not count it
//   credentials  401 or 403, it refused the configuration's credentials: the
//                campaign pauses with the reason provider_credentials
//   failed       anything else (no answer in time, a 5xx, another 4xx): the
//                lead gets its attempt back and the failure breaker counts it

#include <cstdint>
#include <optional>
#include <string_view>

namespace vcs::domain {

enum class placement_refusal : uint8_t { failed, busy, credentials };

// 0 is a request that got no answer (a connection failed, a deadline passed).
placement_refusal refusal_of_status(int http_status) noexcept;

std::string_view to_string(placement_refusal r) noexcept;

} // namespace vcs::domain
