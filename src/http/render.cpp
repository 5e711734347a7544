#include "http/render.hpp"

#include "domain/global_id.hpp"
#include "domain/timestamp.hpp"

namespace vcs::http {

using domain::encode_global_id;
using domain::entity;

void render_tenant_fields(json_out& out, const domain::tenant& t) {
  out.field("tenant_id", encode_global_id(entity::tenant, t.id));
  out.field("name", t.name);
  out.field("plan", domain::to_string(t.plan));
  out.field("campaign_limit", t.campaign_limit());
  out.field("active", t.active);
  out.field("created_at", domain::format_utc(t.created_at));
  out.field("updated_at", domain::format_utc(t.updated_at));
}

void render_api_key(json_out& out, const domain::api_key_info& k,
                    std::optional<std::string_view> secret) {
  out.w().StartObject();
  out.field("id", encode_global_id(entity::api_key, k.id));
  out.field("name", k.name);
  if (secret)
    out.field("key", *secret);
  out.field("masked_key", k.masked_key);
  out.field("status", domain::to_string(k.status));
  out.field("created_at", domain::format_utc(k.created_at));
  out.w().EndObject();
}

void render_client(json_out& out, const domain::client& c) {
  out.w().StartObject();
  out.field("id", encode_global_id(entity::client, c.id));
  out.field("name", c.name);
  out.field("primary_email", c.primary_email);
  out.field("created_at", domain::format_utc(c.created_at));
  out.key("users");
  out.w().StartArray();
  for (const auto& u : c.users) {
    out.w().StartObject();
    out.field("id", encode_global_id(entity::client_user, u.id));
    out.field("email", u.email);
    out.w().EndObject();
  }
  out.w().EndArray();
  out.w().EndObject();
}

} // namespace vcs::http

namespace vcs::http {

namespace {

void optional_int(json_out& out, std::string_view key, const std::optional<int32_t>& v) {
  if (v)
    out.field(key, *v);
  else
    out.null_field(key);
}

} // namespace

void render_campaign_summary(json_out& out, const domain::campaign& c) {
  out.w().StartObject();
  out.field("campaign_id", encode_global_id(entity::campaign, c.id));
  out.field("campaign_name", c.name);
  out.field("campaign_type", c.type);
  out.field("campaign_status", domain::to_string(c.status));
  out.w().EndObject();
}

void render_campaign(json_out& out, const domain::campaign& c) {
  out.w().StartObject();
  out.field("id", encode_global_id(entity::campaign, c.id));
  out.field("name", c.name);
  out.field("type", c.type);
  out.field("status", domain::to_string(c.status));
  out.field("assistant_id", c.assistant_id);
  if (c.voice_provider_id)
    out.field("tenant_voice_provider_id",
              encode_global_id(entity::voice_provider, *c.voice_provider_id));
  else
    out.null_field("tenant_voice_provider_id");
  out.field("dialer_type", c.dialer_type);
  out.field("provider_a_calling_entity", c.provider_a_calling_entity);
  out.field("phone_number_id", c.phone_number_id);
  out.field("phone_number_pool_id", c.phone_number_pool_id);
  out.field("start_date", c.start_date);
  out.field("end_date", c.end_date);
  out.field("timezone", c.timezone);
  out.key("days_of_week");
  if (c.days_of_week) {
    out.w().StartArray();
    for (const auto& d : *c.days_of_week)
      out.str(d);
    out.w().EndArray();
  } else {
    out.w().Null();
  }
  out.field("daily_start_time", c.daily_start_time);
  out.field("daily_end_time", c.daily_end_time);
  optional_int(out, "max_call_attempts", c.max_call_attempts);
  optional_int(out, "max_daily_attempts", c.max_daily_attempts);
  optional_int(out, "min_gap_between_attempts", c.min_gap_between_attempts);
  out.field("consider_voicemail_as_answered", c.consider_voicemail_as_answered);
  out.field("webhook_url", c.webhook_url);
  out.field("lead_count", c.lead_count);
  out.field("created_at", domain::format_utc(c.created_at));
  out.field("updated_at", domain::format_utc(c.updated_at));
  out.w().EndObject();
}

void render_voice_provider(json_out& out, const domain::voice_provider_config& v) {
  out.w().StartObject();
  out.field("voice_provider_id", encode_global_id(entity::voice_provider, v.id));
  out.field("voice_provider", domain::to_string(v.kind));
  out.field("concurrency_limit", v.concurrency_limit);
  out.w().EndObject();
}

} // namespace vcs::http
