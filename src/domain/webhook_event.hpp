#pragma once

// Webhook events of the dialer and their JSON payloads (docs/webhooks.md).

#include "domain/call_result.hpp"
#include "domain/campaign.hpp"
#include "domain/lead_record.hpp"
#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

// The campaigns' events: call.started, call.ended, lead.answered,
// lead.failed, campaign.activated, campaign.paused, campaign.ended.
struct webhook_event {
  std::string type;
  std::string id; // "evt_" + 32 hex digits, unique per event
  timestamp created_at{};
  std::string campaign_id; // global id
  // Call and lead events only.
  std::optional<int64_t> call_id;
  std::optional<std::string> lead_id; // global id
  std::string phone_number;
  // The pool number a POOL campaign's call came from.
  std::optional<std::string> phone_number_id;
  int32_t attempt = 0;
  std::optional<std::string> outcome;
  int32_t duration_seconds = 0;
  std::string call_status;
  bool answered = false;
  std::string answer_type;
  int32_t attempts_made = 0;
  std::optional<timestamp> next_attempt_after;
  std::optional<std::string> call_error_reason;
  std::string custom_fields_json = "{}"; // the lead's, as stored
  // call.ended only: what the provider reported (the payload carries all
  // but the transcript, which the call read has).
  call_result result;
  // Campaign events only: the status reached, the one before and what
  // changed it (status_cause).
  std::string campaign_status;
  std::string previous_status;
  std::string changed_by;
  // campaign.paused only: manual, billing, usage_exhausted or
  // failure_breaker.
  std::optional<std::string> pause_reason;
};

// The event of a campaign reaching `status`: campaign.returned_to_draft,
// campaign.scheduled, campaign.activated, campaign.paused, campaign.ended.
std::string_view campaign_event_type(campaign_status status) noexcept;

// Every event type the service sends, and the statuses of a delivery.
const std::vector<std::string>& webhook_event_types();
const std::vector<std::string>& webhook_delivery_statuses();

// A fresh event id.
std::string new_event_id();

// The payload sent (and signed) byte for byte: {"id", "type", "created_at",
// "timestamp", "data": {...}}; call and lead events carry the call and lead
// fields (call.ended also the provider's report), campaign events the
// campaign status. `timestamp` repeats
// `created_at` under the name the Standard Webhooks payload uses.
std::string to_json(const webhook_event& e);

// The envelope of the other events, around a `data` object given as JSON.
struct webhook_envelope {
  std::string type;
  std::string id;
  timestamp created_at{};
};
std::string to_json(const webhook_envelope& e, std::string_view data_json);

// webhook.endpoint_disabled: the endpoint, its URL, why ("failing": a
// delivery spent its retry schedule while every attempt since
// `failing_since` failed; "gone": it answered 410) and when.
std::string endpoint_disabled_data(int64_t endpoint_id, std::string_view url,
                                   std::string_view reason, std::optional<timestamp> failing_since,
                                   timestamp disabled_at);

// webhook.test: sent on request to a campaign's URL to check a receiver.
std::string test_event_data(std::string_view campaign_id, std::string_view url);

// A bulk import as the import read shows it and as import.completed and
// import.failed carry it: its counts, `rejected` (invalid + duplicates)
// and `pending` (rows not yet inserted).
std::string import_job_json(const import_job& j);

// `text` as a JSON string literal, quotes included.
std::string json_quote(std::string_view text);

} // namespace vcs::domain
