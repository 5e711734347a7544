#include "http/inputs/assignment_input.hpp"

#include "domain/global_id.hpp"
#include "http/inputs/resource_kind_input.hpp"

#include <algorithm>
#include <set>

namespace vcs::http {

namespace {

bool plain_id(std::string_view id) {
  return !id.empty() && id.size() <= 255 && std::none_of(id.begin(), id.end(), [](char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c < 0x20;
  });
}

} // namespace

domain::assignments read_assignments(const rapidjson::Value& value, const std::string& prefix,
                                     domain::field_errors& errors,
                                     std::vector<int64_t>& campaign_ids) {
  domain::assignments out;
  if (!value.IsObject()) {
    errors.add(prefix, "Must be an object.");
    return out;
  }
  each_resource_kind(
      value, prefix, errors,
      [&](const std::string& kind, const std::string& field, const rapidjson::Value& list) {
        if (!list.IsArray()) {
          errors.add(field, "Must be a list of ids.");
          return;
        }
        if (list.Size() > domain::assigned_ids_max) {
          errors.add(field, "At most " + std::to_string(domain::assigned_ids_max) + " ids.");
          return;
        }
        std::vector<std::string> ids;
        std::set<std::string> seen;
        for (const auto& v : list.GetArray()) {
          if (!v.IsString() || !plain_id({v.GetString(), v.GetStringLength()})) {
            errors.add(field, "Each id must be a non-blank string without spaces.");
            continue;
          }
          std::string id{v.GetString(), v.GetStringLength()};
          if (kind == "campaign") {
            auto decoded = domain::parse_id(domain::entity::campaign, id);
            if (!decoded) {
              errors.add(field, "Not a campaign id: " + id);
              continue;
            }
            id = domain::encode_global_id(domain::entity::campaign, *decoded);
            campaign_ids.push_back(*decoded);
          }
          if (!seen.insert(id).second) {
            errors.add(field, "Duplicate id: " + id);
            continue;
          }
          ids.push_back(std::move(id));
        }
        out.emplace_back(kind, std::move(ids));
      });
  return out;
}

} // namespace vcs::http
