#pragma once

// What a live provider is told about the lead it calls, for the
// assistant's script: the lead's name, e-mail and custom fields.

#include <optional>
#include <string>

namespace vcs::domain {

struct call_lead {
  std::optional<std::string> first_name;
  std::optional<std::string> last_name;
  std::optional<std::string> email;
  // The lead's custom_fields, a JSON object's text.
  std::string custom_fields = "{}";
};

} // namespace vcs::domain
