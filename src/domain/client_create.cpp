#include "domain/client_create.hpp"

namespace vcs::domain {

const std::vector<std::string>& resource_kinds() {
  static const std::vector<std::string> kinds{
      "assistant",         "provider_a_workflow", "provider_a_squad",    "phone_number",
      "phone_number_pool", "knowledge_base",      "tools_and_functions", "campaign"};
  return kinds;
}

} // namespace vcs::domain
