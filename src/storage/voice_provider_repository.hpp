#pragma once

#include "domain/secret_box.hpp"
#include "domain/voice_provider.hpp"

#include <optional>

namespace soci {
class session;
}

namespace vcs::storage {

// Stores a configuration with its credentials already sealed.
domain::voice_provider_config insert_voice_provider(soci::session& sql, int64_t tenant_id,
                                                    domain::voice_provider_kind kind,
                                                    const domain::secret_box::sealed& credentials,
                                                    int32_t concurrency_limit);

// Whether the tenant owns a configuration with this id.
bool voice_provider_exists(soci::session& sql, int64_t tenant_id, int64_t id);

} // namespace vcs::storage
