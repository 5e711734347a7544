#include "http/inputs/client_access_input.hpp"

#include "domain/client_access.hpp"
#include "http/inputs/resource_kind_input.hpp"

namespace vcs::http {

std::vector<std::pair<std::string, std::string>> read_client_access(const rapidjson::Value& object,
                                                                    domain::field_errors& errors) {
  std::vector<std::pair<std::string, std::string>> out;
  each_resource_kind(
      object, "client_access", errors,
      [&](const std::string& kind, const std::string& field, const rapidjson::Value& value) {
        std::string level = value.IsString() ? value.GetString() : "";
        if (domain::parse_access_level(level))
          out.emplace_back(kind, level);
        else
          errors.add(field, "Must be one of no_access, view_only, view_and_add, full_access.");
      });
  return out;
}

} // namespace vcs::http
