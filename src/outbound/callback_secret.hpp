#pragma once

// The secret a provider sends back with its callbacks about one
// configuration's calls, where the vendor signs nothing the service can
// check (provider_a's X-Vapi-Secret; provider_d's callback URL): derived
// from the service key, so nothing more is stored, and different for every
// kind and configuration.

#include <cstdint>
#include <string>
#include <string_view>

namespace vcs::outbound {

std::string callback_secret(const std::string& derivation_key, std::string_view kind,
                            int64_t voice_provider_id);

} // namespace vcs::outbound
