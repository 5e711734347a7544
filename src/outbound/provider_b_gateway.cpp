#include "outbound/provider_b_gateway.hpp"

#include "outbound/call_metadata.hpp"
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

class provider_b_gateway final : public actors::voice_gateway {
public:
  provider_b_gateway(provider_b_settings settings, outbound_client& client,
                     std::shared_ptr<const domain::secret_box> secrets)
      : settings_(std::move(settings)), client_(client), secrets_(std::move(secrets)) {}

  void place(const actors::call_placement& call, const actors::campaign_actor& sink) override {
    auto key = open_credential(*secrets_, call.credentials, call.tenant_id, "provider_b_api_key");
    if (!key)
      return refuse_call(sink, call.call_id, "provider_b: credentials unreadable");
    // provider_b calls from a number it holds, named by the number itself.
    if (!call.phone_number_id)
      return refuse_call(sink, call.call_id, "provider_b: the campaign has no phone number");
    json::json_out body;
    body.w().StartObject();
    body.field("from_number", *call.phone_number_id);
    body.field("to_number", call.phone_number);
    if (call.assistant_id)
      body.field("override_agent_id", *call.assistant_id);
    body.key("metadata");
    write_call_metadata(body, call);
    // The agent's {{variables}}: the lead's fields.
    body.key("retell_llm_dynamic_variables");
    write_lead_variables(body, call);
    body.key("agent_override");
    body.w().StartObject();
    body.key("agent");
    body.w().StartObject();
    body.field("webhook_url",
               settings_.callback_base_url + provider_b_callback_path(call.voice_provider_id));
    body.w().EndObject();
    body.w().EndObject();
    body.w().EndObject();
    send_placement(client_, call, settings_.base_url + "/v2/create-phone-call", bearer_key(*key),
                   body.take(), sink, "provider_b", "call_id");
  }

  // A key is checked with the account's concurrency read; agents and
  // numbers are its v2 lists, {items, has_more, pagination_key}, the agents
  // filtered to voice ones (https://docs.retellai.com/api-references/get-concurrency,
  // https://docs.retellai.com/api-references/list-agents,
  // https://docs.retellai.com/api-references/list-phone-numbers).
  void inquire(const actors::provider_inquiry& q, actors::inquiry_done done) override {
    auto key = open_credential(*secrets_, q.credentials, q.tenant_id, "provider_b_api_key");
    if (!key)
      return done(unreadable_credentials("provider_b"));
    const auto page = std::to_string(actors::inquiry_items_max + 1);
    auto listed = [](const char* id, const char* name, const char* number) {
      return [=](const rapidjson::Value& v) {
        auto out = items_of(array_member(v, "items"), id, name, number);
        if (out)
          out->more = true_member(v, "has_more");
        return out;
      };
    };
    std::string path;
    listing_reader read;
    switch (q.what) {
    case actors::inquiry_kind::verify:
      path = "/get-concurrency";
      break;
    case actors::inquiry_kind::assistants:
      path = "/v2/list-agents?limit=" + page;
      read = listed("agent_id", "agent_name", nullptr);
      break;
    case actors::inquiry_kind::phone_numbers:
      // A number's id is the number (what a campaign's phone_number_id is).
      path = "/v2/list-phone-numbers?limit=" + page;
      read = listed("phone_number", "nickname", "phone_number");
      break;
    }
    auto request = inquiry_request(q, settings_.base_url + path, bearer_key(*key));
    if (q.what == actors::inquiry_kind::assistants) {
      request.get = false;
      request.headers.emplace_back("Content-Type", "application/json");
      request.body =
          R"({"filter_criteria":{"channel":{"type":"string","op":"eq","value":"voice"}}})";
    }
    send_inquiry(client_, std::move(request), "provider_b", std::move(read), std::move(done));
  }

private:
  provider_b_settings settings_;
  outbound_client& client_;
  std::shared_ptr<const domain::secret_box> secrets_;
};

// Milliseconds as whole seconds, rounded up; 0 outside (0, one day).
int32_t seconds_of(double ms) {
  if (!(ms > 0) || ms >= 86'400'000)
    return 0;
  return static_cast<int32_t>(std::ceil(ms / 1000));
}

// The call object's analysis (call_analysis), when it has one.
void read_analysis(const rapidjson::Value& call, domain::call_result& r) {
  const auto* analysis = object_member(call, "call_analysis");
  if (!analysis)
    return;
  r.summary = string_member(*analysis, "call_summary");
  if (auto ok = analysis->FindMember("call_successful");
      ok != analysis->MemberEnd() && ok->value.IsBool())
    r.success_evaluation = ok->value.GetBool() ? "true" : "false";
  if (const auto* data = object_member(*analysis, "custom_analysis_data"))
    r.structured_data = json::json_text(*data);
}

domain::call_result result_of(const rapidjson::Value& call) {
  domain::call_result r;
  r.transcript = string_member(call, "transcript");
  r.recording_url = string_member(call, "recording_url");
  r.ended_reason = string_member(call, "disconnection_reason");
  // The provider states costs in cents.
  if (const auto* cost = object_member(call, "call_cost"))
    if (auto cents = number_member(*cost, "combined_cost"))
      r.cost = domain::cost_text(*cents / 100);
  read_analysis(call, r);
  return r;
}

} // namespace

std::shared_ptr<actors::voice_gateway>
make_provider_b_gateway(provider_b_settings settings, outbound_client& client,
                        std::shared_ptr<const domain::secret_box> secrets) {
  return std::make_shared<provider_b_gateway>(std::move(settings), client, std::move(secrets));
}

std::string provider_b_callback_path(int64_t voice_provider_id) {
  return "/webhooks/provider-b/" + std::to_string(voice_provider_id);
}

domain::call_outcome outcome_of_disconnection_reason(std::string_view reason) {
  using domain::call_outcome;
  if (reason == "user_hangup" || reason == "agent_hangup" || reason == "call_transfer" ||
      reason == "inactivity" || reason == "max_duration_reached")
    return call_outcome::human;
  if (reason == "voicemail_reached")
    return call_outcome::voicemail;
  if (reason == "dial_no_answer" || reason == "ivr_reached")
    return call_outcome::no_answer;
  if (reason == "dial_busy" || reason == "user_declined")
    return call_outcome::busy;
  if (reason == "invalid_destination")
    return call_outcome::invalid_number;
  return call_outcome::failed;
}

namespace {

// Reads a call event body; nullopt for events that change no call (other
// kinds, events about calls we did not place) and bodies that are not one.
std::optional<provider_report> read_provider_b_event(std::string_view body) {
  // The same depth and text guards as every request body.
  auto doc = json::parse_json(body);
  if (!doc || !doc->IsObject())
    return std::nullopt;
  // The event's name is `event` in the webhook guide, `event_type` in the
  // analysis guide: either is read.
  auto event = string_member(*doc, "event");
  if (!event)
    event = string_member(*doc, "event_type");
  const auto* call = object_member(*doc, "call");
  if (!event || !call)
    return std::nullopt;
  provider_report r;
  r.provider_call_id = string_member(*call, "call_id").value_or("");
  if (const auto* meta = object_member(*call, "metadata"))
    r.call_id = read_call_metadata(*meta);
  if (!r.call_id && r.provider_call_id.empty())
    return std::nullopt;
  if (*event == "call_started") {
    r.update.what = actors::call_update::kind::ringing;
  } else if (*event == "call_ended" || *event == "call_analyzed") {
    // call_analyzed carries the whole call as well: it ends a call whose
    // call_ended was lost, and completes the result of one already ended.
    auto reason = string_member(*call, "disconnection_reason").value_or("");
    // The account's concurrency was full: the call never rang, so it is
    // the provider's refusal, and the lead's attempt is given back.
    if (reason == "concurrency_limit_reached") {
      r.update.what = actors::call_update::kind::refused;
      r.update.refusal = domain::placement_refusal::busy;
      r.update.error = "provider_b: " + reason;
      r.update.provider_call_id = r.provider_call_id;
      return r;
    }
    r.update.what = actors::call_update::kind::ended;
    r.update.outcome = outcome_of_disconnection_reason(reason);
    if (r.update.outcome == domain::call_outcome::failed)
      r.update.error = reason.empty() ? "provider_b: no disconnection reason" : reason;
    r.update.result = result_of(*call);
    if (auto ms = number_member(*call, "duration_ms"))
      r.update.duration_seconds = seconds_of(*ms);
    else if (auto start = number_member(*call, "start_timestamp"),
             end = number_member(*call, "end_timestamp");
             start && end)
      r.update.duration_seconds = seconds_of(*end - *start);
    if (*event == "call_analyzed")
      r.analysis = r.update.result;
  } else {
    return std::nullopt;
  }
  r.update.provider_call_id = r.provider_call_id;
  return r;
}

} // namespace

constinit const provider_callback provider_b_callback{
    .kind = "provider_b",
    .route = "/webhooks/provider-b/{voice_provider_id}",
    .proof_header = "X-Retell-Signature",
    .scheme = &domain::provider_b_signature,
    .signing_credential = "provider_b_api_key",
    .read = read_provider_b_event};

} // namespace vcs::outbound
