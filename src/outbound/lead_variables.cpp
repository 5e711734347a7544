#include "outbound/lead_variables.hpp"

#include <rapidjson/document.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace vcs::outbound {

void write_lead_variables(json::json_out& out, const actors::call_placement& call,
                          bool name_the_call) {
  const std::array<std::pair<std::string_view, const std::optional<std::string>*>, 3> own{{
      {"first_name", &call.lead.first_name},
      {"last_name", &call.lead.last_name},
      {"email", &call.lead.email},
  }};
  out.w().StartObject();
  out.field("phone_number", call.phone_number);
  if (name_the_call)
    out.field("vcs_call_id", std::to_string(call.call_id));
  for (const auto& [name, value] : own)
    if (*value)
      out.field(name, **value);
  rapidjson::Document fields;
  // Stored as a JSON object by the lead's write; anything else adds nothing.
  if (!fields.Parse(call.lead.custom_fields.data(), call.lead.custom_fields.size())
           .HasParseError() &&
      fields.IsObject())
    for (const auto& m : fields.GetObject()) {
      std::string_view name{m.name.GetString(), m.name.GetStringLength()};
      if (name == "phone_number" || (name_the_call && name == "vcs_call_id") ||
          std::any_of(own.begin(), own.end(), [&](const auto& o) { return o.first == name; }))
        continue;
      if (m.value.IsString())
        out.field(name, std::string_view{m.value.GetString(), m.value.GetStringLength()});
      else
        out.field(name, json::json_text(m.value));
    }
  out.w().EndObject();
}

} // namespace vcs::outbound
