#pragma once

// provider_c's live adapter, in the shape of its documented REST API
// (docs/decisions/voice-providers.md): POST {base}/v1/convai/twilio/outbound-call
// with `xi-api-key: <provider_c_api_key>` and {agent_id,
// agent_phone_number_id, to_number, conversation_initiation_client_data:
// {dynamic_variables}} places the call (200 {success, message,
// conversation_id, callSid}). The provider reports through its workspace's
// post-call webhook (post_call_transcription, call_initiation_failure),
// which the tenant points at /webhooks/provider-c/{voice_provider_id} and
// which is signed in ElevenLabs-Signature with the webhook's secret.

#include "actors/voice_gateway.hpp"
#include "domain/secret_box.hpp"
#include "outbound/outbound_client.hpp"
#include "outbound/provider_callback.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::outbound {

struct provider_c_settings {
  std::string base_url = "https://api.elevenlabs.io";
};

std::shared_ptr<actors::voice_gateway>
make_provider_c_gateway(provider_c_settings settings, outbound_client& client,
                        std::shared_ptr<const domain::secret_box> secrets);

// Its callbacks: POST /webhooks/provider-c/{voice_provider_id} with the
// configuration's global id, signed in ElevenLabs-Signature with the
// webhook's secret (without one in the configuration nothing is read).
extern const provider_callback provider_c_callback;

// A call that never connected as an outcome: provider_c's failure_reason
// and, when it names none that fits, the SIP status its metadata holds.
domain::call_outcome outcome_of_failure(std::string_view reason, std::optional<int> sip_status);

} // namespace vcs::outbound
