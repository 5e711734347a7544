#pragma once

// Webhook events of the dialer and their JSON payloads (docs/webhooks.md).

#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

// Event kinds: call.started, call.ended, lead.answered, lead.failed,
// campaign.activated, campaign.ended.
struct webhook_event {
  std::string type;
  std::string id; // "evt_" + 32 hex digits, unique per event
  timestamp created_at{};
  std::string campaign_id; // global id
  // Call and lead events only.
  std::optional<int64_t> call_id;
  std::optional<std::string> lead_id; // global id
  std::string phone_number;
  int32_t attempt = 0;
  std::optional<std::string> outcome;
  int32_t duration_seconds = 0;
  std::string call_status;
  bool answered = false;
  std::string answer_type;
  int32_t attempts_made = 0;
  std::optional<timestamp> next_attempt_after;
  std::optional<std::string> call_error_reason;
  // Campaign events only.
  std::string campaign_status;
};

// A fresh event id.
std::string new_event_id();

// The payload sent (and signed) byte for byte: {"id", "type", "created_at",
// "data": {...}}; call and lead events carry the call and lead fields,
// campaign events the campaign status.
std::string to_json(const webhook_event& e);

// `text` as a JSON string literal, quotes included.
std::string json_quote(std::string_view text);

} // namespace vcs::domain
