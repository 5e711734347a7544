#pragma once

// provider_a's live adapter, in the shape of its documented REST API:
// POST {base}/call with `Authorization: Bearer <provider_a_private_key>` and
// {assistantId, phoneNumberId, customer: {number}, metadata,
// assistantOverrides: {variableValues}, server: {url, secret}} places the
// call (201 {id, status}); the provider then POSTs its
// server messages (status-update, end-of-call-report) to the server url
// with the secret in `X-Vapi-Secret`.

#include "actors/voice_gateway.hpp"
#include "domain/secret_box.hpp"
#include "outbound/outbound_client.hpp"
#include "outbound/provider_callback.hpp"

#include <memory>
#include <optional>
#include <string>

namespace vcs::outbound {

struct provider_a_settings {
  std::string base_url = "https://api.vapi.ai";
  // Where the provider reaches this service's public listener.
  std::string callback_base_url;
  // The service key (hex) the callback secrets are derived from.
  std::string derivation_key;
};

std::shared_ptr<actors::voice_gateway>
make_provider_a_gateway(provider_a_settings settings, outbound_client& client,
                        std::shared_ptr<const domain::secret_box> secrets);

// The callback path for a configuration: /webhooks/provider-a/{id}.
std::string provider_a_callback_path(int64_t voice_provider_id);

// Its callbacks: POST /webhooks/provider-a/{voice_provider_id}, with the
// configuration's derived secret in X-Vapi-Secret.
extern const provider_callback provider_a_callback;

// provider_a's endedReason as an outcome.
domain::call_outcome outcome_of_ended_reason(std::string_view reason);

} // namespace vcs::outbound
