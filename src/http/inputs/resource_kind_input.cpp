#include "http/inputs/resource_kind_input.hpp"

#include "domain/client_create.hpp"

#include <algorithm>
#include <set>

namespace vcs::http {

void each_resource_kind(const rapidjson::Value& object, const std::string& prefix,
                        domain::field_errors& errors,
                        const std::function<void(const std::string& kind, const std::string& field,
                                                 const rapidjson::Value& value)>& each) {
  const auto& kinds = domain::resource_kinds();
  std::set<std::string> given;
  for (const auto& m : object.GetObject()) {
    std::string kind{m.name.GetString(), m.name.GetStringLength()};
    auto field = prefix + "." + kind;
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
      errors.add(field, "Unknown resource kind.");
      continue;
    }
    // A JSON object may repeat a name; the rows of a kind given twice would
    // collide in the database.
    if (!given.insert(kind).second) {
      errors.add(field, "Given more than once.");
      continue;
    }
    each(kind, field, m.value);
  }
}

} // namespace vcs::http
