#pragma once

// The credentials of a voice provider configuration, opened from their
// sealed form (by live adapters, callback checks, and the configuration's
// reads, which mask them).

#include "domain/secret_box.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace vcs::outbound {

// Every credential field of the sealed JSON object (its string members);
// nullopt when it cannot be opened or read.
std::optional<std::map<std::string, std::string>>
open_credentials(const domain::secret_box& secrets, const domain::secret_box::sealed& credentials,
                 int64_t tenant_id);

// One of them, nullopt when absent or empty.
std::optional<std::string> open_credential(const domain::secret_box& secrets,
                                           const domain::secret_box::sealed& credentials,
                                           int64_t tenant_id, const char* field);

} // namespace vcs::outbound
