#pragma once

// provider_b's live adapter, in the shape of its documented REST API
// (docs/decisions/voice-providers.md): POST {base}/v2/create-phone-call with
// `Authorization: Bearer <provider_b_api_key>` and {from_number, to_number,
// override_agent_id, metadata, retell_llm_dynamic_variables, agent_override:
// {agent: {webhook_url}}}
// places the call (201 {call_id, ...}); the provider then POSTs its call
// events (call_started, call_ended, call_analyzed) to the webhook url,
// signed in X-Retell-Signature with the same API key.

#include "actors/voice_gateway.hpp"
#include "domain/secret_box.hpp"
#include "outbound/outbound_client.hpp"
#include "outbound/provider_callback.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::outbound {

struct provider_b_settings {
  std::string base_url = "https://api.retellai.com";
  // Where the provider reaches this service's public listener.
  std::string callback_base_url;
};

std::shared_ptr<actors::voice_gateway>
make_provider_b_gateway(provider_b_settings settings, outbound_client& client,
                        std::shared_ptr<const domain::secret_box> secrets);

// The callback path for a configuration: /webhooks/provider-b/{id}.
std::string provider_b_callback_path(int64_t voice_provider_id);

// Its callbacks: POST /webhooks/provider-b/{voice_provider_id}, signed in
// X-Retell-Signature with the configuration's API key.
extern const provider_callback provider_b_callback;

// provider_b's disconnection_reason as an outcome.
domain::call_outcome outcome_of_disconnection_reason(std::string_view reason);

} // namespace vcs::outbound
