#pragma once

#include "domain/error.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

// How long a key's first response is replayed.
inline constexpr std::chrono::hours idempotency_retention{24};

// Keys are 1 to 255 printable ASCII characters (a UUID, say).
std::optional<error> check_idempotency_key(std::string_view key);

// What a key stands for: SHA-256 (hex) of the caller (caller_of), method,
// target and body bytes. A repeat must match it exactly, so a stored answer
// (a new key, say) is replayed only to the caller that made it.
std::string request_fingerprint(std::string_view caller, std::string_view method,
                                std::string_view target, std::string_view body);

// Writes that may carry a key: POST, PATCH and DELETE.
bool accepts_idempotency_key(std::string_view method) noexcept;

} // namespace vcs::domain
