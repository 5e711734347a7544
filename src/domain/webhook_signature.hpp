#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// The service's first webhook signature, X-VCS-Signature, in the
// "t=<unix seconds>,v1=<hex HMAC-SHA256>" form: the timestamp is signed
// with the body so a captured delivery cannot be replayed later. Sent
// beside the Standard Webhooks headers (standard_webhook.hpp) so receivers
// written for it keep working while they move (docs/webhooks.md).

namespace vcs::domain {

inline constexpr std::string_view legacy_signature_header = "X-VCS-Signature";

// "t=<unix_seconds>,v1=<lower-case hex HMAC-SHA256>,..." with one v1 item
// per secret, in the order given: each secret's bytes as key over
// "<unix_seconds>.<body>".
std::string sign_webhook(const std::vector<std::string>& secrets, int64_t unix_seconds,
                         std::string_view body);

// True when `header` has exactly one t= item and one or more v1= items (in
// any order, comma-separated, spaces around items allowed; items with
// other keys are ignored so new schemes can be added), |now_unix - t| <=
// tolerance_seconds, and some v1 equals the signature of `body` at t
// (compared in constant time). False when anything is malformed.
bool verify_webhook(std::string_view header, std::string_view secret, std::string_view body,
                    int64_t now_unix, int64_t tolerance_seconds);

// "whsec_" followed by the standard base64 of 32 random bytes (44
// characters, padding included), as Standard Webhooks serialises secrets.
std::string new_webhook_secret();

// Lower-case hex of HMAC-SHA256(key, message), for secrets derived from the
// service key (a provider's callback secret) instead of stored.
std::string hmac_sha256_hex(std::string_view key, std::string_view message);

// Equal contents, compared in time independent of where they differ.
bool equal_constant_time(std::string_view a, std::string_view b) noexcept;

} // namespace vcs::domain
