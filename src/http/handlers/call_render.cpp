#include "http/handlers/call_render.hpp"

#include "domain/billing.hpp"
#include "domain/global_id.hpp"
#include "http/handlers/listing.hpp"

#include <chrono>

namespace vcs::http::handlers {

void render_call_fields(json_out& out, const storage::call_record& c, bool with_transcript) {
  const auto& r = c.result;
  out.field("id", std::to_string(c.id));
  out.field("campaign_lead_id", domain::encode_global_id(domain::entity::lead, c.lead_id));
  out.field("phone_number", c.phone_number);
  out.field("phone_number_id", c.phone_number_id);
  out.field("attempt", c.attempt);
  out.field("status", c.status);
  out.field("outcome", c.outcome);
  out.field("error", c.error);
  out.field("provider_call_id", c.provider_call_id);
  out.field("started_at", domain::format_utc(c.created_at));
  time_field(out, "ringing_at", c.ringing_at);
  time_field(out, "ended_at", c.ended_at);
  out.field("billed_seconds", c.duration_seconds);
  out.field("billed_minutes",
            domain::from_units(
                domain::billable_hundredths(std::chrono::seconds{c.duration_seconds}), 2, 2));
  out.field("usage_recorded", c.usage_recorded);
  out.field("ended_reason", r.ended_reason);
  out.field("summary", r.summary);
  if (with_transcript)
    out.field("transcript", r.transcript);
  out.field("recording_url", r.recording_url);
  out.field("success_evaluation", r.success_evaluation);
  out.key("structured_data");
  if (r.structured_data)
    out.w().RawValue(r.structured_data->data(), r.structured_data->size(), rapidjson::kObjectType);
  else
    out.w().Null();
  out.field("cost", r.cost);
}

} // namespace vcs::http::handlers
