#pragma once

// The associated data that binds each kind of sealed secret to its owner
// (secret_box): a ciphertext moved to another tenant's row does not open.

#include <cstdint>
#include <string>
#include <string_view>

namespace vcs::domain {

inline std::string voice_provider_binding(std::int64_t tenant_id) {
  return "voice_provider:tenant:" + std::to_string(tenant_id);
}

inline std::string webhook_secret_binding(std::int64_t tenant_id) {
  return "webhook_secret:tenant:" + std::to_string(tenant_id);
}

// A kept response is bound to its tenant and Idempotency-Key, so that it
// cannot be replayed for another.
inline std::string idempotency_binding(std::int64_t tenant_id, std::string_view key) {
  return "idempotency:tenant:" + std::to_string(tenant_id) + ":" + std::string{key};
}

} // namespace vcs::domain
