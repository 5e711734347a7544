#include "http/inputs/pool_input.hpp"

#include "http/inputs/json.hpp"

#include <algorithm>

namespace vcs::http {

domain::pool_fields read_pool_fields(const rapidjson::Value& object, bool creating,
                                     domain::field_errors& errors) {
  object_reader in{object, errors};
  domain::pool_fields f;
  f.name = in.string("name", false, 1 << 16);
  f.phone_number_ids = in.string_list("phone_number_ids", false);
  if (auto cap = in.integer("daily_cap_per_number", false, 1, domain::pool_daily_cap_max))
    f.daily_cap_per_number = static_cast<int32_t>(*cap);
  f.timezone = in.string("timezone", false, 64);
  // The rules' problems of the fields read well.
  const auto problems = domain::validate_pool(f, creating);
  for (const auto& [field, messages] : problems.entries()) {
    const auto& read = errors.entries();
    if (std::none_of(read.begin(), read.end(), [&](const auto& e) { return e.first == field; }))
      for (const auto& m : messages)
        errors.add(field, m);
  }
  return f;
}

} // namespace vcs::http
