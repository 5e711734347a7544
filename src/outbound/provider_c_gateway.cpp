#include "outbound/provider_c_gateway.hpp"

#include "domain/global_id.hpp"
#include "outbound/inquiry_reply.hpp"
#include "outbound/lead_variables.hpp"
#include "outbound/placement_reply.hpp"
#include "outbound/provider_credentials.hpp"
#include "outbound/report_members.hpp"
#include "json/json.hpp"

#include <rapidjson/document.h>

#include <cmath>

namespace vcs::outbound {

namespace {

class provider_c_gateway final : public actors::voice_gateway {
public:
  provider_c_gateway(provider_c_settings settings, outbound_client& client,
                     std::shared_ptr<const domain::secret_box> secrets)
      : settings_(std::move(settings)), client_(client), secrets_(std::move(secrets)) {}

  void place(const actors::call_placement& call, const actors::campaign_actor& sink) override {
    auto key = open_credential(*secrets_, call.credentials, call.tenant_id, "provider_c_api_key");
    if (!key)
      return refuse_call(sink, call.call_id, "provider_c: credentials unreadable");
    // Without the webhook's secret no report of the call could be checked:
    // the call is not placed, and the campaign waits (paused, as for
    // refused credentials) until the configuration has one.
    if (!open_credential(*secrets_, call.credentials, call.tenant_id,
                         "provider_c_webhook_secret_key"))
      return refuse_call(sink, call.call_id,
                         "provider_c: the configuration has no webhook secret to check the "
                         "provider's reports with",
                         domain::placement_refusal::credentials);
    // provider_c needs both: its agent and the id of its imported number.
    if (!call.assistant_id)
      return refuse_call(sink, call.call_id, "provider_c: the campaign has no assistant");
    if (!call.phone_number_id)
      return refuse_call(sink, call.call_id, "provider_c: the campaign has no phone number");
    json::json_out body;
    body.w().StartObject();
    body.field("agent_id", *call.assistant_id);
    body.field("agent_phone_number_id", *call.phone_number_id);
    body.field("to_number", call.phone_number);
    body.key("conversation_initiation_client_data");
    body.w().StartObject();
    // The agent's {{variables}}: the lead's fields, and our call's id, which
    // the post-call webhook sends back (so a call whose placement answer
    // was lost is still found).
    body.key("dynamic_variables");
    write_lead_variables(body, call, true);
    body.w().EndObject();
    body.w().EndObject();
    send_placement(client_, call, settings_.base_url + "/v1/convai/twilio/outbound-call",
                   {"xi-api-key", *key}, body.take(), sink, "provider_c", "conversation_id", true);
  }

  // A key is checked with a one-agent page of the agents list, which a key
  // limited to agents work may read; agents come as {agents, has_more,
  // next_cursor}, numbers as a top-level array
  // (https://elevenlabs.io/docs/api-reference/agents/list, the phone
  // numbers list of its OpenAPI document).
  void inquire(const actors::provider_inquiry& q, actors::inquiry_done done) override {
    auto key = open_credential(*secrets_, q.credentials, q.tenant_id, "provider_c_api_key");
    if (!key)
      return done(unreadable_credentials("provider_c"));
    std::string path;
    listing_reader read;
    switch (q.what) {
    case actors::inquiry_kind::verify:
      path = "/v1/convai/agents?page_size=1";
      break;
    case actors::inquiry_kind::assistants:
      path = "/v1/convai/agents?page_size=" + std::to_string(actors::inquiry_items_max);
      read = [](const rapidjson::Value& v) {
        auto out = items_of(array_member(v, "agents"), "agent_id", "name");
        if (out)
          out->more = true_member(v, "has_more");
        return out;
      };
      break;
    case actors::inquiry_kind::phone_numbers:
      path = "/v1/convai/phone-numbers";
      read = [](const rapidjson::Value& v) {
        return items_of(&v, "phone_number_id", "label", "phone_number");
      };
      break;
    }
    send_inquiry(client_, inquiry_request(q, settings_.base_url + path, {"xi-api-key", *key}),
                 "provider_c", std::move(read), std::move(done));
  }

private:
  provider_c_settings settings_;
  outbound_client& client_;
  std::shared_ptr<const domain::secret_box> secrets_;
};

// The transcript's turns as text, one "Agent: ..." or "User: ..." line each.
std::optional<std::string> transcript_of(const rapidjson::Value& data) {
  auto turns = data.FindMember("transcript");
  if (turns == data.MemberEnd() || !turns->value.IsArray())
    return std::nullopt;
  std::string out;
  for (const auto& turn : turns->value.GetArray()) {
    auto message = string_member(turn, "message");
    if (!message)
      continue; // a tool call's turn has no text
    auto role = string_member(turn, "role").value_or("");
    if (!out.empty())
      out += '\n';
    out += role == "agent" ? "Agent: " : role == "user" ? "User: " : role + ": ";
    out += *message;
  }
  return out;
}

domain::call_result result_of(const rapidjson::Value& data) {
  domain::call_result r;
  r.transcript = transcript_of(data);
  if (const auto* meta = object_member(data, "metadata"))
    if (auto reason = string_member(*meta, "termination_reason"); reason && !reason->empty())
      r.ended_reason = reason;
  if (const auto* analysis = object_member(data, "analysis")) {
    r.summary = string_member(*analysis, "transcript_summary");
    // "success", "failure" or "unknown".
    r.success_evaluation = string_member(*analysis, "call_successful");
    if (const auto* collected = object_member(*analysis, "data_collection_results"))
      if (collected->MemberCount() > 0)
        r.structured_data = json::json_text(*collected);
  }
  // The provider's cost is in its credits, not money: not kept as a cost.
  return r;
}

// Whether the agent's voicemail detection tool found a machine: its result
// in the transcript (a tool result of result_type
// voicemail_detection_success, in the conversation's documented shape,
// which the post-call webhook's data follows), after which the vendor ends
// the call.
bool voicemail_detected(const rapidjson::Value& data) {
  const auto* turns = array_member(data, "transcript");
  if (!turns)
    return false;
  for (const auto& turn : turns->GetArray())
    if (const auto* results = array_member(turn, "tool_results"))
      for (const auto& result : results->GetArray())
        if (string_member(result, "result_type") == "voicemail_detection_success")
          return true;
  return false;
}

// The SIP status of a call that never connected, from the failure's
// metadata: the SIP trunk's body.sip_status_code, or Twilio's
// StatusCallback body.SipResponseCode (a string).
std::optional<int> sip_status_of(const rapidjson::Value& data) {
  const auto* meta = object_member(data, "metadata");
  const auto* body = meta ? object_member(*meta, "body") : nullptr;
  if (!body)
    return std::nullopt;
  if (auto code = number_member(*body, "sip_status_code"); code && *code > 0 && *code < 1000)
    return static_cast<int>(*code);
  if (auto text = string_member(*body, "SipResponseCode"))
    if (auto code = domain::parse_positive_int(*text); code && *code < 1000)
      return static_cast<int>(*code);
  return std::nullopt;
}

// Whole seconds; 0 outside [0, one day).
int32_t seconds_of(double seconds) {
  if (!(seconds > 0) || seconds >= 86'400)
    return 0;
  return static_cast<int32_t>(std::ceil(seconds));
}

} // namespace

std::shared_ptr<actors::voice_gateway>
make_provider_c_gateway(provider_c_settings settings, outbound_client& client,
                        std::shared_ptr<const domain::secret_box> secrets) {
  return std::make_shared<provider_c_gateway>(std::move(settings), client, std::move(secrets));
}

domain::call_outcome outcome_of_failure(std::string_view reason, std::optional<int> sip_status) {
  if (reason == "busy")
    return domain::call_outcome::busy;
  if (reason == "no-answer")
    return domain::call_outcome::no_answer;
  // The vendor names no reason for a number that does not exist; the SIP
  // answer does (RFC 3261: 404 Not Found, 484 Address Incomplete, 604 Does
  // Not Exist Anywhere; 486 Busy Here, 600 Busy Everywhere).
  if (sip_status == 404 || sip_status == 484 || sip_status == 604)
    return domain::call_outcome::invalid_number;
  if (sip_status == 486 || sip_status == 600)
    return domain::call_outcome::busy;
  return domain::call_outcome::failed;
}

namespace {

// Reads a post-call webhook body; nullopt for kinds that change no call
// (post_call_audio, others) and bodies that are not one.
std::optional<provider_report> read_provider_c_event(std::string_view body) {
  // The same depth and text guards as every request body.
  auto doc = json::parse_json(body);
  if (!doc || !doc->IsObject())
    return std::nullopt;
  auto type = string_member(*doc, "type");
  const auto* data = object_member(*doc, "data");
  if (!type || !data)
    return std::nullopt;
  provider_report r;
  r.provider_call_id = string_member(*data, "conversation_id").value_or("");
  if (const auto* init = object_member(*data, "conversation_initiation_client_data"))
    if (const auto* variables = object_member(*init, "dynamic_variables"))
      if (auto id = string_member(*variables, "vcs_call_id"))
        r.call_id = domain::parse_positive_int(*id);
  if (!r.call_id && r.provider_call_id.empty())
    return std::nullopt;
  r.update.what = actors::call_update::kind::ended;
  if (*type == "post_call_transcription") {
    // Sent once the call ended and its analysis is done: the whole report.
    bool failed = string_member(*data, "status") == "failed";
    r.update.outcome = failed                      ? domain::call_outcome::failed
                       : voicemail_detected(*data) ? domain::call_outcome::voicemail
                                                   : domain::call_outcome::human;
    r.update.result = result_of(*data);
    if (failed)
      r.update.error = "provider_c: " + r.update.result.ended_reason.value_or("the call failed");
    if (const auto* meta = object_member(*data, "metadata"))
      if (auto seconds = number_member(*meta, "call_duration_secs"))
        r.update.duration_seconds = seconds_of(*seconds);
  } else if (*type == "call_initiation_failure") {
    auto reason = string_member(*data, "failure_reason").value_or("unknown");
    r.update.outcome = outcome_of_failure(reason, sip_status_of(*data));
    r.update.result.ended_reason = reason;
    if (r.update.outcome == domain::call_outcome::failed)
      r.update.error = "provider_c: the call could not be started (" + reason + ")";
  } else {
    return std::nullopt;
  }
  r.update.provider_call_id = r.provider_call_id;
  return r;
}

} // namespace

constinit const provider_callback provider_c_callback{
    .kind = "provider_c",
    .route = "/webhooks/provider-c/{voice_provider_id}",
    .global_id = true,
    .proof_header = "ElevenLabs-Signature",
    .scheme = &domain::provider_c_signature,
    .signing_credential = "provider_c_webhook_secret_key",
    .read = read_provider_c_event};

} // namespace vcs::outbound
