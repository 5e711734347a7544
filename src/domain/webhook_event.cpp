#include "domain/webhook_event.hpp"

#include "domain/api_key.hpp"
#include "domain/global_id.hpp"

#include <cstdio>

namespace vcs::domain {

std::string_view campaign_event_type(campaign_status status) noexcept {
  switch (status) {
  case campaign_status::draft:
    return "campaign.returned_to_draft";
  case campaign_status::scheduled:
    return "campaign.scheduled";
  case campaign_status::active:
    return "campaign.activated";
  case campaign_status::paused:
    return "campaign.paused";
  case campaign_status::ended:
    return "campaign.ended";
  }
  return {};
}

const std::vector<std::string>& webhook_event_types() {
  static const std::vector<std::string> types{"call.started",
                                              "call.ended",
                                              "lead.answered",
                                              "lead.failed",
                                              "campaign.returned_to_draft",
                                              "campaign.scheduled",
                                              "campaign.activated",
                                              "campaign.paused",
                                              "campaign.ended",
                                              "import.completed",
                                              "import.failed",
                                              "webhook.endpoint_disabled",
                                              "webhook.test"};
  return types;
}

const std::vector<std::string>& webhook_delivery_statuses() {
  static const std::vector<std::string> statuses{"pending", "delivered", "dead"};
  return statuses;
}

std::string new_event_id() {
  return "evt_" + random_hex_32().substr(0, 32);
}

std::string json_quote(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += ch;
      }
    }
  }
  out += '"';
  return out;
}

namespace {

std::string opt_quote(const std::optional<std::string>& v) {
  return v ? json_quote(*v) : "null";
}

// A time as a JSON string in `format`, or null.
std::string opt_time(const std::optional<timestamp>& t,
                     std::string (*format)(timestamp) = format_utc) {
  return t ? json_quote(format(*t)) : "null";
}

std::string envelope_start(std::string_view id, std::string_view type, timestamp created_at) {
  const std::string at = json_quote(format_utc(created_at));
  return "{\"id\":" + json_quote(id) + ",\"type\":" + json_quote(type) + ",\"created_at\":" + at +
         ",\"timestamp\":" + at + ",\"data\":";
}

} // namespace

std::string to_json(const webhook_envelope& e, std::string_view data_json) {
  std::string out = envelope_start(e.id, e.type, e.created_at);
  out += data_json;
  out += '}';
  return out;
}

std::string endpoint_disabled_data(int64_t endpoint_id, std::string_view url,
                                   std::string_view reason, std::optional<timestamp> failing_since,
                                   timestamp disabled_at) {
  return "{\"endpoint_id\":" + json_quote(std::to_string(endpoint_id)) +
         ",\"url\":" + json_quote(url) + ",\"reason\":" + json_quote(reason) +
         ",\"failing_since\":" + opt_time(failing_since) +
         ",\"disabled_at\":" + json_quote(format_utc(disabled_at)) + "}";
}

std::string import_job_json(const import_job& j) {
  auto count = [](std::string_view name, int32_t v) {
    return ",\"" + std::string{name} + "\":" + std::to_string(v);
  };
  return "{\"import_id\":" + json_quote(encode_global_id(entity::lead_import, j.id)) +
         ",\"campaign_id\":" + json_quote(encode_global_id(entity::campaign, j.campaign_id)) +
         ",\"status\":" + json_quote(j.status) + count("accepted", j.accepted) +
         count("invalid", j.invalid) + count("inserted", j.inserted) +
         count("duplicates", j.duplicates) + count("rejected", j.invalid + j.duplicates) +
         count("pending", j.pending) + ",\"error\":" + opt_quote(j.error) +
         ",\"created_at\":" + json_quote(format_utc(j.created_at)) +
         ",\"finished_at\":" + opt_time(j.finished_at) + "}";
}

std::string test_event_data(std::string_view campaign_id, std::string_view url) {
  return "{\"campaign_id\":" + json_quote(campaign_id) + ",\"url\":" + json_quote(url) + "}";
}

std::string to_json(const webhook_event& e) {
  std::string out =
      envelope_start(e.id, e.type, e.created_at) + "{\"campaign_id\":" + json_quote(e.campaign_id);
  if (e.call_id || e.lead_id) {
    out += ",\"call_id\":" + (e.call_id ? json_quote(std::to_string(*e.call_id)) : "null");
    out += ",\"lead_id\":" + opt_quote(e.lead_id);
    out += ",\"phone_number\":" + json_quote(e.phone_number);
    out += ",\"phone_number_id\":" + opt_quote(e.phone_number_id);
    out += ",\"attempt\":" + std::to_string(e.attempt);
    out += ",\"outcome\":" + opt_quote(e.outcome);
    out += ",\"duration_seconds\":" + std::to_string(e.duration_seconds);
    out += ",\"call_status\":" + json_quote(e.call_status);
    out += std::string{",\"answered\":"} + (e.answered ? "true" : "false");
    out += ",\"answer_type\":" + json_quote(e.answer_type);
    out += ",\"attempts_made\":" + std::to_string(e.attempts_made);
    out += ",\"next_attempt_after\":" + opt_time(e.next_attempt_after, format_offset);
    out += ",\"call_error_reason\":" + opt_quote(e.call_error_reason);
    out += ",\"custom_fields\":" + e.custom_fields_json;
    if (e.type == "call.ended") {
      const auto& r = e.result;
      out += ",\"summary\":" + opt_quote(r.summary);
      out += ",\"recording_url\":" + opt_quote(r.recording_url);
      out += ",\"success_evaluation\":" + opt_quote(r.success_evaluation);
      out += ",\"structured_data\":" + r.structured_data.value_or("null");
      out += ",\"ended_reason\":" + opt_quote(r.ended_reason);
      out += ",\"cost\":" + opt_quote(r.cost);
    }
  } else {
    out += ",\"campaign_status\":" + json_quote(e.campaign_status);
    out += ",\"previous_status\":" + json_quote(e.previous_status);
    out += ",\"changed_by\":" + json_quote(e.changed_by);
    if (e.type == "campaign.paused")
      out += ",\"pause_reason\":" + opt_quote(e.pause_reason);
  }
  out += "}}";
  return out;
}

} // namespace vcs::domain
