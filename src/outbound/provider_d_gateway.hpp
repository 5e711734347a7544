#pragma once

// provider_d's live adapter, in the shape of its documented REST API
// (docs/decisions/voice-providers.md): POST {base}/v1/calls with
// `Authorization: Bearer <provider_d_api_key>` and {phone_number,
// pathway_id, from, request_data, metadata, webhook, answered_by_enabled}
// places the call (200 {status: "success", call_id}); when it ends the
// provider POSTs the call object to the webhook. The vendor signs its
// webhooks with a secret the contract does not hold, so the webhook URL
// carries a secret derived for the configuration:
// /webhooks/provider-d/{voice_provider_id}/{secret}.

#include "actors/voice_gateway.hpp"
#include "domain/secret_box.hpp"
#include "outbound/outbound_client.hpp"
#include "outbound/provider_callback.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::outbound {

struct provider_d_settings {
  std::string base_url = "https://api.bland.ai";
  // Where the provider reaches this service's public listener.
  std::string callback_base_url;
  // The service key (hex) the callback secrets are derived from.
  std::string derivation_key;
};

std::shared_ptr<actors::voice_gateway>
make_provider_d_gateway(provider_d_settings settings, outbound_client& client,
                        std::shared_ptr<const domain::secret_box> secrets);

// Its callbacks: POST /webhooks/provider-d/{voice_provider_id}/{secret}, the
// webhook URL given with each call, which carries the configuration's
// derived secret. A repeat about an ended call changes nothing.
extern const provider_callback provider_d_callback;

} // namespace vcs::outbound
