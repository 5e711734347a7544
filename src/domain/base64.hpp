#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace vcs::domain {

// Standard base64 (RFC 4648 section 4) with padding, and back; decoding
// takes the padding as optional and answers nullopt on anything else.
std::string to_base64(std::string_view bytes);
std::optional<std::string> from_base64(std::string_view text);

} // namespace vcs::domain
