#pragma once

// What a live adapter tells the campaign actor about a call it tried to
// place: the provider took it (with the provider's id for it) or refused it.

#include "actors/actors.hpp"
#include "actors/voice_gateway.hpp"
#include "outbound/outbound_client.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace vcs::outbound {

void refuse_call(const actors::campaign_actor& sink, int64_t call_id, std::string why,
                 domain::placement_refusal refusal = domain::placement_refusal::failed);

// `ringing` for a provider that reports nothing before the call ends
// (provider_c): its acceptance means the number is being dialled.
void accept_call(const actors::campaign_actor& sink, int64_t call_id, std::string provider_call_id,
                 bool ringing = false);

// The reason kept on the lead for a refused placement: "<kind>: <error>"
// for a failed connection, "<kind>: HTTP <status> <start of the body>".
std::string refusal_reason(std::string_view kind, int status, std::string_view error,
                           std::string_view body);

// The header that carries a provider's key: `Authorization: Bearer <key>`
// for most, the vendor's own header for others.
std::pair<std::string, std::string> bearer_key(const std::string& key);

// POSTs a call request to the provider with its key in `auth`: a 2xx
// answer accepts the call under the id in its `id_member`, unless it says
// `"success": false`; anything else (a failed connection included) refuses
// it, as its status reads (domain::refusal_of_status). `ringing` as for
// accept_call.
void send_placement(outbound_client& client, const actors::call_placement& call, std::string url,
                    std::pair<std::string, std::string> auth, std::string body,
                    const actors::campaign_actor& sink, std::string_view kind,
                    const char* id_member, bool ringing = false);

} // namespace vcs::outbound
