#include "http/inputs/campaign_input.hpp"

#include "domain/global_id.hpp"
#include "http/inputs/json.hpp"

#include <limits>

namespace vcs::http {

namespace {

std::optional<int32_t> int32_field(object_reader& in, const char* name) {
  auto v = in.integer(name, false, std::numeric_limits<int32_t>::min(),
                      std::numeric_limits<int32_t>::max());
  return v ? std::optional<int32_t>{static_cast<int32_t>(*v)} : std::nullopt;
}

// Strings are length-checked in the domain; here only a generous cap keeps
// absurd values out of error messages.
std::optional<std::string> text(object_reader& in, const char* name) {
  return in.string(name, false, 1 << 16);
}

} // namespace

campaign_input read_campaign_input(const rapidjson::Value& body, domain::field_errors& errors) {
  object_reader in{body, errors};
  campaign_input out;
  auto& f = out.fields;
  f.name = text(in, "name");
  f.type = text(in, "type");
  f.assistant_id = text(in, "assistant_id");
  f.dialer_type = text(in, "dialer_type");
  f.provider_a_calling_entity = text(in, "provider_a_calling_entity");
  f.phone_number_id = text(in, "phone_number_id");
  f.phone_number_pool_id = text(in, "phone_number_pool_id");
  f.start_date = text(in, "start_date");
  f.end_date = text(in, "end_date");
  f.timezone = text(in, "timezone");
  f.days_of_week = in.string_list("days_of_week", false);
  f.daily_start_time = text(in, "daily_start_time");
  f.daily_end_time = text(in, "daily_end_time");
  f.max_call_attempts = int32_field(in, "max_call_attempts");
  f.max_daily_attempts = int32_field(in, "max_daily_attempts");
  f.min_gap_between_attempts = int32_field(in, "min_gap_between_attempts");
  f.consider_voicemail_as_answered = in.boolean("consider_voicemail_as_answered", false);
  f.webhook_url = text(in, "webhook_url");
  f.lead_local_time = in.boolean("lead_local_time", false);
  f.calling_purpose = text(in, "calling_purpose");
  f.failure_breaker_calls = int32_field(in, "failure_breaker_calls");
  f.failure_breaker_percent = int32_field(in, "failure_breaker_percent");
  if (auto ref = text(in, "tenant_voice_provider_id")) {
    out.voice_provider_ref = *ref;
    f.voice_provider_id = domain::parse_id(domain::entity::voice_provider, *ref);
    out.voice_provider_malformed = !f.voice_provider_id;
  }
  return out;
}

} // namespace vcs::http
