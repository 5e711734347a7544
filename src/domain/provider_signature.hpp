#pragma once

// The webhook signatures of the voice providers that sign with a time
// (docs/decisions/voice-providers.md): one header of comma-separated items,
// a signed time and a lower-case hex HMAC-SHA256 of the raw body with that
// time, keyed with a secret of the configuration.
//   provider_b: X-Retell-Signature "v=<unix ms>,d=<hex>" over body + ms,
//               keyed with the API key; five minutes either way.
//   provider_c: ElevenLabs-Signature "t=<unix s>,v0=<hex>" over "s.body",
//               keyed with the webhook's secret; thirty minutes old at most
//               (the vendor's own examples), five ahead.

#include <cstdint>
#include <string>
#include <string_view>

namespace vcs::domain {

struct signature_scheme {
  std::string_view stamp_item;  // "v="
  std::string_view digest_item; // "d="
  // Whether the signed message is "<time>.<body>" rather than body + time.
  bool stamp_first;
  int64_t ms_per_unit; // of the signed time
  int64_t max_age_ms;
  int64_t max_ahead_ms;
};

inline constexpr signature_scheme provider_b_signature{"v=", "d=",       false,
                                                       1,    5 * 60'000, 5 * 60'000};
inline constexpr signature_scheme provider_c_signature{"t=", "v0=",       true,
                                                       1000, 30 * 60'000, 5 * 60'000};

// How long a digest must be remembered to refuse every replay that still
// passes the time check, for every scheme.
inline constexpr int64_t signature_replay_window_ms = 35 * 60'000;

std::string sign_provider(const signature_scheme& scheme, std::string_view key,
                          std::string_view body, int64_t unix_ms);

enum class signature_check : uint8_t { valid, invalid, stale };

// valid when `header` holds one time item (digits) and one digest item, the
// digest is that of `body` at that time (compared in constant time) and the
// time lies within the scheme's bounds of now_ms; stale when only the time
// is off; invalid otherwise.
signature_check check_provider_signature(const signature_scheme& scheme, std::string_view header,
                                         std::string_view key, std::string_view body,
                                         int64_t now_ms);

// The digest item of a signature that checked valid: what a replay repeats.
std::string signature_digest(const signature_scheme& scheme, std::string_view header);

} // namespace vcs::domain
