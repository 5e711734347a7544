#pragma once

// Signatures of the Standard Webhooks specification (standardwebhooks.com,
// 1.0.0), so receivers verify deliveries with its libraries: the headers
// webhook-id, webhook-timestamp and webhook-signature, the latter a
// space-delimited list of "v1,<base64 HMAC-SHA256>" over
// "<webhook-id>.<webhook-timestamp>.<body>", keyed with the base64 bytes
// of a "whsec_" secret.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

// What a secret starts with (the specification's serialisation).
inline constexpr std::string_view webhook_secret_prefix = "whsec_";

inline constexpr std::string_view webhook_id_header = "webhook-id";
inline constexpr std::string_view webhook_timestamp_header = "webhook-timestamp";
inline constexpr std::string_view webhook_signature_header = "webhook-signature";

// The HMAC key of a secret: the standard base64 after the "whsec_" prefix
// (which may be absent), decoded; padding is optional, as in the
// specification's libraries. nullopt when it is not base64 or empty.
std::optional<std::string> standard_webhook_key(std::string_view secret);

// "v1,<base64 HMAC-SHA256(key, id.unix_seconds.body)>".
std::string standard_webhook_signature(std::string_view key, std::string_view id,
                                       int64_t unix_seconds, std::string_view body);

// The webhook-signature value: one signature per key, space-delimited (a
// rotated-out secret signs beside the new one during its grace period).
std::string standard_webhook_signatures(const std::vector<std::string>& keys, std::string_view id,
                                        int64_t unix_seconds, std::string_view body);

// True when `timestamp` is a unix time within tolerance_seconds of
// now_unix and some v1 entry of `signatures` (space-delimited, other
// versions ignored) is the signature of `body` with the secret's key,
// compared in constant time. False when anything is malformed.
bool verify_standard_webhook(std::string_view secret, std::string_view id,
                             std::string_view timestamp, std::string_view signatures,
                             std::string_view body, int64_t now_unix, int64_t tolerance_seconds);

} // namespace vcs::domain
