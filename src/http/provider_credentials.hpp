#pragma once

// One credential of a voice provider configuration, opened from its sealed
// credentials (only live adapters and callback checks open them).

#include "domain/secret_box.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace vcs::http {

std::optional<std::string> open_credential(const domain::secret_box& secrets,
                                           const domain::secret_box::sealed& credentials,
                                           int64_t tenant_id, const char* field);

} // namespace vcs::http
