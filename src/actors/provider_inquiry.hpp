#pragma once

// What a tenant asks of its vendor account through a voice provider
// configuration, outside any call: whether the credentials work, and the
// account's assistants and phone numbers (for pickers instead of raw ids).

#include "domain/secret_box.hpp"

#include <caf/allowed_unsafe_message_type.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::actors {

enum class inquiry_kind : uint8_t { verify, assistants, phone_numbers };

struct provider_inquiry {
  int64_t tenant_id = 0;
  int64_t voice_provider_id = 0;
  std::string provider_kind; // provider_a .. provider_d
  domain::secret_box::sealed credentials;
  // The configuration's version: an answer kept for an older one is not
  // reused once its credentials changed.
  int64_t version = 0;
  inquiry_kind what = inquiry_kind::verify;
};

// One assistant (agent, pathway) or phone number of the vendor account:
// `id` is what a campaign names (assistant_id, phone_number_id).
struct inquiry_item {
  std::string id;
  std::optional<std::string> name;
  std::optional<std::string> number; // phone numbers: the number itself
};

enum class inquiry_outcome : uint8_t {
  ok,
  credentials_refused, // the vendor answered 401 or 403
  unreachable,         // no answer in time (or refused by the outbound guard)
  unexpected_answer,   // another status, or a body that is not the documented shape
};

std::string_view to_string(inquiry_outcome o) noexcept;

// An inquiry lists at most this many items; `truncated` says there are more.
inline constexpr std::size_t inquiry_items_max = 100;

struct inquiry_result {
  inquiry_outcome outcome = inquiry_outcome::ok;
  int vendor_status = 0; // 0 when no answer came
  std::string detail;    // why, in words (never a credential)
  std::vector<inquiry_item> items;
  bool truncated = false;
  // The simulated provider answered: no vendor was asked.
  bool simulated = false;
};

using inquiry_done = std::function<void(inquiry_result)>;

} // namespace vcs::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::provider_inquiry)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::actors::inquiry_result)
