#include "outbound/provider_a_gateway.hpp"

#include "outbound/call_metadata.hpp"
#include "outbound/callback_secret.hpp"
#include "outbound/inquiry_reply.hpp"
#include "outbound/lead_variables.hpp"
#include "outbound/placement_reply.hpp"
#include "outbound/provider_credentials.hpp"
#include "outbound/report_members.hpp"
#include "json/json.hpp"

#include <rapidjson/document.h>

namespace vcs::outbound {

namespace {

// provider_a's analysis and artifact, where its current reports put them
// (message.analysis, message.artifact) or its older ones (message itself).
domain::call_result result_of(const rapidjson::Value& m) {
  domain::call_result r;
  const auto* analysis = object_member(m, "analysis");
  const auto* artifact = object_member(m, "artifact");
  r.summary = first_string({analysis, &m}, "summary");
  r.transcript = first_string({artifact, &m}, "transcript");
  r.recording_url = first_string({artifact, &m}, "recordingUrl");
  r.ended_reason = string_member(m, "endedReason");
  if (analysis) {
    // A pass/fail rubric sends a boolean, a numeric scale a number.
    if (auto e = analysis->FindMember("successEvaluation"); e != analysis->MemberEnd()) {
      if (e->value.IsString())
        r.success_evaluation = std::string{e->value.GetString(), e->value.GetStringLength()};
      else if (e->value.IsBool())
        r.success_evaluation = e->value.GetBool() ? "true" : "false";
      else if (e->value.IsNumber())
        r.success_evaluation = json::json_text(e->value);
    }
    if (const auto* data = object_member(*analysis, "structuredData"))
      r.structured_data = json::json_text(*data);
  }
  if (auto cost = m.FindMember("cost"); cost != m.MemberEnd() && cost->value.IsNumber())
    r.cost = domain::cost_text(cost->value.GetDouble());
  return r;
}

// CreateCallDTO starts a call with assistantId, squadId or workflowId, each
// with its own overrides object holding variableValues
// (https://docs.vapi.ai/api-reference/calls/create).
struct calling_entity_members {
  const char* id_member;
  const char* overrides_member;
};

calling_entity_members calling_entity_of(const std::optional<std::string>& entity) {
  if (entity == "SQUAD")
    return {"squadId", "squadOverrides"};
  if (entity == "WORKFLOW")
    return {"workflowId", "workflowOverrides"};
  return {"assistantId", "assistantOverrides"};
}

class provider_a_gateway final : public actors::voice_gateway {
public:
  provider_a_gateway(provider_a_settings settings, outbound_client& client,
                     std::shared_ptr<const domain::secret_box> secrets)
      : settings_(std::move(settings)), client_(client), secrets_(std::move(secrets)) {}

  void place(const actors::call_placement& call, const actors::campaign_actor& sink) override {
    auto key =
        open_credential(*secrets_, call.credentials, call.tenant_id, "provider_a_private_key");
    if (!key)
      return refuse_call(sink, call.call_id, "provider_a: credentials unreadable");
    const auto entity = calling_entity_of(call.calling_entity);
    json::json_out body;
    body.w().StartObject();
    if (call.assistant_id)
      body.field(entity.id_member, *call.assistant_id);
    if (call.phone_number_id)
      body.field("phoneNumberId", *call.phone_number_id);
    body.key("customer");
    body.w().StartObject();
    body.field("number", call.phone_number);
    body.w().EndObject();
    body.key("metadata");
    write_call_metadata(body, call);
    // The assistant's (every squad member's, the workflow's) {{variables}}:
    // the lead's fields.
    body.key(entity.overrides_member);
    body.w().StartObject();
    body.key("variableValues");
    write_lead_variables(body, call);
    body.w().EndObject();
    body.key("server");
    body.w().StartObject();
    body.field("url",
               settings_.callback_base_url + provider_a_callback_path(call.voice_provider_id));
    body.field("secret",
               callback_secret(settings_.derivation_key, "provider_a", call.voice_provider_id));
    body.w().EndObject();
    body.w().EndObject();
    send_placement(client_, call, settings_.base_url + "/call", bearer_key(*key), body.take(), sink,
                   "provider_a", "id");
  }

  // Its documentation checks a key with the assistants list
  // (https://docs.vapi.ai/security-and-privacy/api-keys); both lists are
  // top-level arrays under `limit` (https://docs.vapi.ai/api-reference/assistants/list,
  // https://docs.vapi.ai/api-reference/phone-numbers/list).
  void inquire(const actors::provider_inquiry& q, actors::inquiry_done done) override {
    auto key = open_credential(*secrets_, q.credentials, q.tenant_id, "provider_a_private_key");
    if (!key)
      return done(unreadable_credentials("provider_a"));
    const auto page = std::to_string(actors::inquiry_items_max + 1);
    listing_reader read;
    std::string path;
    switch (q.what) {
    case actors::inquiry_kind::verify:
      path = "/assistant?limit=1";
      break;
    case actors::inquiry_kind::assistants:
      path = "/assistant?limit=" + page;
      read = [](const rapidjson::Value& v) { return items_of(&v, "id", "name"); };
      break;
    case actors::inquiry_kind::phone_numbers:
      path = "/phone-number?limit=" + page;
      read = [](const rapidjson::Value& v) { return items_of(&v, "id", "name", "number"); };
      break;
    }
    send_inquiry(client_, inquiry_request(q, settings_.base_url + path, bearer_key(*key)),
                 "provider_a", std::move(read), std::move(done));
  }

private:
  provider_a_settings settings_;
  outbound_client& client_;
  std::shared_ptr<const domain::secret_box> secrets_;
};

} // namespace

std::shared_ptr<actors::voice_gateway>
make_provider_a_gateway(provider_a_settings settings, outbound_client& client,
                        std::shared_ptr<const domain::secret_box> secrets) {
  return std::make_shared<provider_a_gateway>(std::move(settings), client, std::move(secrets));
}

std::string provider_a_callback_path(int64_t voice_provider_id) {
  return "/webhooks/provider-a/" + std::to_string(voice_provider_id);
}

domain::call_outcome outcome_of_ended_reason(std::string_view reason) {
  using domain::call_outcome;
  if (reason == "customer-did-not-answer" || reason == "silence-timed-out-before-answer" ||
      reason == "customer-did-not-give-microphone-permission")
    return call_outcome::no_answer;
  if (reason == "customer-busy")
    return call_outcome::busy;
  if (reason == "voicemail")
    return call_outcome::voicemail;
  if (reason.find("misdialed") != std::string_view::npos ||
      reason.find("invalid-number") != std::string_view::npos ||
      reason.find("number-not-in-service") != std::string_view::npos)
    return call_outcome::invalid_number;
  if (reason == "customer-ended-call" || reason == "assistant-ended-call" ||
      reason == "assistant-said-end-call-phrase" || reason == "assistant-forwarded-call" ||
      reason == "exceeded-max-duration" || reason == "silence-timed-out")
    return call_outcome::human;
  return call_outcome::failed;
}

namespace {

// Reads a server message body; nullopt for messages that do not change a
// call (other types, statuses before ringing) or bodies that are not one.
std::optional<provider_report> read_provider_a_message(std::string_view body) {
  // The same depth and text guards as every request body.
  auto doc = json::parse_json(body);
  if (!doc || !doc->IsObject())
    return std::nullopt;
  auto msg = doc->FindMember("message");
  if (msg == doc->MemberEnd() || !msg->value.IsObject())
    return std::nullopt;
  const auto& m = msg->value;
  auto type = string_member(m, "type");
  auto call = m.FindMember("call");
  if (!type || call == m.MemberEnd() || !call->value.IsObject())
    return std::nullopt;
  provider_report r;
  r.provider_call_id = string_member(call->value, "id").value_or("");
  if (const auto* meta = object_member(call->value, "metadata"))
    r.call_id = read_call_metadata(*meta);
  if (!r.call_id && r.provider_call_id.empty())
    return std::nullopt;
  if (*type == "status-update") {
    auto status = string_member(m, "status");
    if (status != "ringing" && status != "in-progress")
      return std::nullopt;
    r.update.what = actors::call_update::kind::ringing;
  } else if (*type == "end-of-call-report") {
    r.update.what = actors::call_update::kind::ended;
    auto reason = string_member(m, "endedReason").value_or("");
    r.update.outcome = outcome_of_ended_reason(reason);
    if (r.update.outcome == domain::call_outcome::failed)
      r.update.error = reason;
    r.update.result = result_of(m);
    auto duration = m.FindMember("durationSeconds");
    if (duration != m.MemberEnd() && duration->value.IsNumber()) {
      auto seconds = duration->value.GetDouble();
      if (seconds > 0 && seconds < 86'400)
        r.update.duration_seconds = static_cast<int32_t>(seconds + 0.999);
    }
  } else {
    return std::nullopt;
  }
  r.update.provider_call_id = r.provider_call_id;
  return r;
}

} // namespace

constinit const provider_callback provider_a_callback{
    .kind = "provider_a",
    .route = "/webhooks/provider-a/{voice_provider_id}",
    .proof_header = "X-Vapi-Secret",
    .read = read_provider_a_message};

} // namespace vcs::outbound
