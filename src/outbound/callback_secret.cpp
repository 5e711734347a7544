#include "outbound/callback_secret.hpp"

#include "domain/webhook_signature.hpp"

namespace vcs::outbound {

std::string callback_secret(const std::string& derivation_key, std::string_view kind,
                            int64_t voice_provider_id) {
  std::string message{kind};
  message.append("_callback:").append(std::to_string(voice_provider_id));
  return domain::hmac_sha256_hex(derivation_key, message);
}

} // namespace vcs::outbound
