#include "outbound/provider_d_gateway.hpp"

#include "outbound/call_metadata.hpp"
#include "outbound/callback_secret.hpp"
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

class provider_d_gateway final : public actors::voice_gateway {
public:
  provider_d_gateway(provider_d_settings settings, outbound_client& client,
                     std::shared_ptr<const domain::secret_box> secrets)
      : settings_(std::move(settings)), client_(client), secrets_(std::move(secrets)) {}

  void place(const actors::call_placement& call, const actors::campaign_actor& sink) override {
    auto key = open_credential(*secrets_, call.credentials, call.tenant_id, "provider_d_api_key");
    if (!key)
      return refuse_call(sink, call.call_id, "provider_d: credentials unreadable");
    // Without a pathway the vendor wants a prompt (`task`), which the
    // contract does not hold.
    if (!call.assistant_id)
      return refuse_call(sink, call.call_id, "provider_d: the campaign has no assistant");
    json::json_out body;
    body.w().StartObject();
    body.field("phone_number", call.phone_number);
    body.field("pathway_id", *call.assistant_id);
    // Without one the vendor calls from a number of its own.
    if (call.phone_number_id)
      body.field("from", *call.phone_number_id);
    // The pathway's {{variables}}: the lead's fields.
    body.key("request_data");
    write_lead_variables(body, call);
    body.key("metadata");
    write_call_metadata(body, call);
    body.field("webhook",
               settings_.callback_base_url + "/webhooks/provider-d/" +
                   std::to_string(call.voice_provider_id) + "/" +
                   callback_secret(settings_.derivation_key, "provider_d", call.voice_provider_id));
    // So that its report says whether a person or a machine answered.
    body.field("answered_by_enabled", true);
    body.w().EndObject();
    send_placement(client_, call, settings_.base_url + "/v1/calls", bearer_key(*key), body.take(),
                   sink, "provider_d", "call_id", true);
  }

  // A key is checked with the account read (GET /v1/me); the assistants
  // are its pathways (a campaign's assistant_id is the pathway_id), the
  // numbers its inbound ones, the only numbers it lists
  // (https://docs.bland.ai/api-v1/get/me,
  // https://docs.bland.ai/api-v1/get/all_pathway,
  // https://docs.bland.ai/api-v1/get/inbound). The pathways page shows
  // neither the list's wrapper nor its id's name: both forms are read.
  void inquire(const actors::provider_inquiry& q, actors::inquiry_done done) override {
    auto key = open_credential(*secrets_, q.credentials, q.tenant_id, "provider_d_api_key");
    if (!key)
      return done(unreadable_credentials("provider_d"));
    std::string path;
    listing_reader read;
    switch (q.what) {
    case actors::inquiry_kind::verify:
      path = "/v1/me";
      break;
    case actors::inquiry_kind::assistants:
      path = "/v1/pathway";
      read = [](const rapidjson::Value& v) {
        const auto* list = v.IsArray() ? &v : array_member(v, "data");
        if (!list)
          list = array_member(v, "pathways");
        auto out = items_of(list, "id", "name");
        if (out && out->items.empty())
          out = items_of(list, "pathway_id", "name");
        return out;
      };
      break;
    case actors::inquiry_kind::phone_numbers:
      path = "/v1/inbound";
      read = [](const rapidjson::Value& v) {
        return items_of(array_member(v, "inbound_numbers"), "phone_number", nullptr,
                        "phone_number");
      };
      break;
    }
    send_inquiry(client_, inquiry_request(q, settings_.base_url + path, bearer_key(*key)),
                 "provider_d", std::move(read), std::move(done));
  }

private:
  provider_d_settings settings_;
  outbound_client& client_;
  std::shared_ptr<const domain::secret_box> secrets_;
};

// Minutes as whole seconds, rounded up; 0 outside (0, one day).
int32_t seconds_of_minutes(double minutes) {
  if (!(minutes > 0) || minutes >= 1440)
    return 0;
  return static_cast<int32_t>(std::ceil(minutes * 60 - 1e-9));
}

domain::call_result result_of(const rapidjson::Value& call) {
  domain::call_result r;
  r.transcript = string_member(call, "concatenated_transcript");
  r.summary = string_member(call, "summary");
  r.recording_url = string_member(call, "recording_url");
  // ASSISTANT or USER: who hung up.
  r.ended_reason = string_member(call, "call_ended_by");
  if (const auto* analysis = object_member(call, "analysis"))
    r.structured_data = json::json_text(*analysis);
  // In dollars.
  if (auto price = number_member(call, "price"))
    r.cost = domain::cost_text(*price);
  return r;
}

} // namespace

std::shared_ptr<actors::voice_gateway>
make_provider_d_gateway(provider_d_settings settings, outbound_client& client,
                        std::shared_ptr<const domain::secret_box> secrets) {
  return std::make_shared<provider_d_gateway>(std::move(settings), client, std::move(secrets));
}

namespace {

// Reads the call object of a webhook; nullopt for a body that is not one
// or names no call.
std::optional<provider_report> read_provider_d_call(std::string_view body) {
  // The same depth and text guards as every request body.
  auto doc = json::parse_json(body);
  if (!doc || !doc->IsObject())
    return std::nullopt;
  const auto& call = *doc;
  provider_report r;
  r.provider_call_id = string_member(call, "call_id").value_or("");
  if (const auto* meta = object_member(call, "metadata"))
    r.call_id = read_call_metadata(*meta);
  if (!r.call_id && r.provider_call_id.empty())
    return std::nullopt;
  using domain::call_outcome;
  r.update.what = actors::call_update::kind::ended;
  r.update.result = result_of(call);
  auto queue_status = string_member(call, "queue_status").value_or("");
  auto error = string_member(call, "error_message");
  if (queue_status.ends_with("error") || (error && !error->empty())) {
    // pre_queue_error, queue_error, call_error (complete_error is an error
    // after a completed call: its outcome stands).
    if (queue_status != "complete_error") {
      r.update.outcome = call_outcome::failed;
      r.update.error = "provider_d: " + error.value_or(queue_status);
    }
  }
  if (r.update.error.empty()) {
    auto answered_by = string_member(call, "answered_by").value_or("");
    r.update.outcome = answered_by == "voicemail"   ? call_outcome::voicemail
                       : answered_by == "no-answer" ? call_outcome::no_answer
                                                    : call_outcome::human;
  }
  if (auto minutes = number_member(call, "call_length"))
    r.update.duration_seconds = seconds_of_minutes(*minutes);
  r.update.provider_call_id = r.provider_call_id;
  return r;
}

} // namespace

constinit const provider_callback provider_d_callback{
    .kind = "provider_d",
    .route = "/webhooks/provider-d/{voice_provider_id}/{secret}",
    .read = read_provider_d_call};

} // namespace vcs::outbound
