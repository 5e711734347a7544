#pragma once

// provider_b's webhook signature (docs/decisions/voice-providers.md): the
// X-Retell-Signature header, "v=<unix milliseconds>,d=<lower-case hex
// HMAC-SHA256>", keyed with the configuration's API key over the raw body
// followed by the same milliseconds.

#include <cstdint>
#include <string>
#include <string_view>

namespace vcs::domain {

// How far the signed time may be from the server clock: the vendor's SDK
// accepts five minutes.
inline constexpr int64_t provider_b_signature_tolerance_ms = 5 * 60 * 1000;

std::string sign_provider_b(std::string_view api_key, std::string_view body, int64_t unix_ms);

enum class provider_b_check : uint8_t { valid, invalid, stale };

// valid when `header` holds one v= (digits) and one d= item, the digest is
// that of `body` at v= (compared in constant time) and v= lies within the
// tolerance of now_ms; stale when only the time is off; invalid otherwise.
provider_b_check check_provider_b_signature(std::string_view header, std::string_view api_key,
                                            std::string_view body, int64_t now_ms);

// The d= item of a signature that checked valid: what a replay repeats.
std::string provider_b_digest(std::string_view header);

} // namespace vcs::domain
