#include "outbound/call_metadata.hpp"

#include "domain/global_id.hpp"
#include "outbound/report_members.hpp"

namespace vcs::outbound {

void write_call_metadata(json::json_out& out, const actors::call_placement& call) {
  out.w().StartObject();
  out.field("vcs_call_id", std::to_string(call.call_id));
  out.field("vcs_lead_id", domain::encode_global_id(domain::entity::lead, call.lead_id));
  out.field("vcs_attempt", call.attempt);
  out.w().EndObject();
}

std::optional<int64_t> read_call_metadata(const rapidjson::Value& metadata) {
  auto id = string_member(metadata, "vcs_call_id");
  if (!id)
    return std::nullopt;
  return domain::parse_positive_int(*id);
}

} // namespace vcs::outbound
