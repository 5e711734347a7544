#include "http/render/render.hpp"

#include "domain/call_state.hpp"
#include "domain/failure_breaker.hpp"
#include "domain/global_id.hpp"
#include "domain/timestamp.hpp"
#include "domain/webhook_event.hpp"

namespace vcs::http {

using domain::encode_global_id;
using domain::entity;

void global_id_field(json_out& out, std::string_view name, domain::entity kind,
                     std::optional<int64_t> id) {
  if (id)
    out.field(name, encode_global_id(kind, *id));
  else
    out.null_field(name);
}

void render_client_submission(json_out& out, const domain::client_submission& s) {
  out.w().StartObject();
  out.field("id", encode_global_id(entity::form_submission, s.submission.id));
  out.field("form_id", encode_global_id(entity::client_form, s.submission.form_id));
  out.field("form_title", s.form_title);
  out.field("submitted_at", domain::format_utc(s.submission.created_at));
  out.key("response_data");
  out.w().RawValue(s.submission.response_data_json.data(), s.submission.response_data_json.size(),
                   rapidjson::kObjectType);
  out.field("is_test", s.submission.is_test);
  out.w().EndObject();
}

void render_tenant_fields(json_out& out, const domain::tenant& t) {
  out.field("tenant_id", encode_global_id(entity::tenant, t.id));
  out.field("name", t.name);
  out.field("plan", domain::to_string(t.plan));
  out.field("campaign_limit", t.campaign_limit());
  out.field("active", t.active);
  out.field("calling_purpose", domain::to_string(t.calling_purpose_default));
  out.key("contact_cap");
  if (t.contact_cap) {
    out.w().StartObject();
    out.field("calls", t.contact_cap->calls);
    out.field("window_hours", static_cast<int64_t>(t.contact_cap->window.count()));
    out.w().EndObject();
  } else {
    out.w().Null();
  }
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
  out.key("permissions");
  out.w().StartArray();
  for (auto name : k.scope.permissions.names())
    out.w().String(name.data(), static_cast<rapidjson::SizeType>(name.size()));
  out.w().EndArray();
  out.key("campaign_ids");
  if (!k.scope.campaigns) {
    out.w().Null();
  } else {
    out.w().StartArray();
    for (auto id : *k.scope.campaigns) {
      const auto text = encode_global_id(entity::campaign, id);
      out.w().String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
    }
    out.w().EndArray();
  }
  auto utc = [](const std::optional<domain::timestamp>& t) {
    return t ? std::optional<std::string>{domain::format_utc(*t)} : std::nullopt;
  };
  out.field("expires_at", utc(k.scope.expires_at));
  out.field("created_at", domain::format_utc(k.created_at));
  out.field("last_used_at", utc(k.last_used_at));
  out.w().EndObject();
}

std::string api_keys_json(std::string_view member, const std::vector<domain::api_key_info>& keys) {
  json_out out;
  out.w().StartObject();
  out.key(member);
  out.w().StartArray();
  for (const auto& k : keys)
    render_api_key(out, k);
  out.w().EndArray();
  out.w().EndObject();
  return out.take();
}

void render_member(json_out& out, const domain::member_info& m) {
  out.w().StartObject();
  out.field("id", encode_global_id(entity::member, m.id));
  out.field("email", m.email);
  out.field("role", domain::to_string(m.role));
  out.field("status", m.active ? "Active" : "Invited");
  out.field("created_at", domain::format_utc(m.created_at));
  out.field("last_sign_in_at",
            m.last_sign_in_at ? std::optional<std::string>{domain::format_utc(*m.last_sign_in_at)}
                              : std::nullopt);
  out.w().EndObject();
}

void render_members(json_out& out, const std::vector<domain::member_info>& members) {
  out.w().StartArray();
  for (const auto& m : members)
    render_member(out, m);
  out.w().EndArray();
}

void setup_link_fields(json_out& out, std::string_view setup_url) {
  out.field("setup_url", setup_url);
  out.field(
      "setup_expires_at",
      domain::format_utc(domain::now() + std::chrono::duration_cast<domain::timestamp::duration>(
                                             domain::setup_link_validity)));
}

std::string member_json(const domain::member_info& m, std::string_view message,
                        std::string_view setup_url) {
  json_out out;
  out.w().StartObject();
  out.field("success", true);
  out.field("message", message);
  out.key("data");
  render_member(out, m);
  if (!setup_url.empty())
    setup_link_fields(out, setup_url);
  out.w().EndObject();
  return out.take();
}

void render_feed_event(json_out& out, const storage::feed_event& e) {
  out.w().StartObject();
  out.field("id", e.event_id);
  out.field("type", e.event_type);
  out.field("campaign_id",
            e.campaign_id
                ? std::optional<std::string>{encode_global_id(entity::campaign, *e.campaign_id)}
                : std::nullopt);
  out.field("created_at", domain::format_utc(e.created_at));
  out.field("cursor", storage::to_string(e.at));
  out.key("payload");
  out.w().RawValue(e.payload.data(), e.payload.size(), rapidjson::kObjectType);
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

void render_campaign_summary(json_out& out, const domain::campaign& c) {
  out.w().StartObject();
  out.field("campaign_id", encode_global_id(entity::campaign, c.id));
  out.field("campaign_name", c.name);
  out.field("campaign_type", c.type);
  out.field("campaign_status", domain::to_string(c.status));
  out.w().EndObject();
}

namespace {

void campaign_fields(json_out& out, const domain::campaign& c) {
  out.field("id", encode_global_id(entity::campaign, c.id));
  out.field("name", c.name);
  out.field("type", c.type);
  out.field("status", domain::to_string(c.status));
  if (c.paused_for)
    out.field("pause_reason", domain::to_string(*c.paused_for));
  else
    out.null_field("pause_reason");
  out.field("assistant_id", c.assistant_id);
  global_id_field(out, "tenant_voice_provider_id", entity::voice_provider, c.voice_provider_id);
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
  out.field("max_call_attempts", c.max_call_attempts);
  out.field("max_daily_attempts", c.max_daily_attempts);
  out.field("min_gap_between_attempts", c.min_gap_between_attempts);
  out.field("consider_voicemail_as_answered", c.consider_voicemail_as_answered);
  out.field("webhook_url", c.webhook_url);
  out.field("lead_local_time", c.lead_local_time);
  // The purpose that applies, and whether the campaign or its tenant set it.
  out.field("calling_purpose", domain::to_string(c.purpose));
  out.field("calling_purpose_from", c.purpose_set ? "campaign" : "tenant");
  // The breaker that applies, defaults included.
  const auto breaker = domain::breaker_of(c);
  out.field("failure_breaker_calls", breaker.calls);
  out.field("failure_breaker_percent", breaker.percent);
  out.field("lead_count", c.lead_count);
  out.field("created_at", domain::format_utc(c.created_at));
  out.field("updated_at", domain::format_utc(c.updated_at));
}

int64_t count_of(const storage::lead_statistics& stats, std::string_view status) {
  for (const auto& [name, count] : stats.call_statuses)
    if (name == status)
      return count;
  return 0;
}

} // namespace

void render_campaign(json_out& out, const domain::campaign& c) {
  out.w().StartObject();
  campaign_fields(out, c);
  out.w().EndObject();
}

void render_campaign(json_out& out, const storage::campaign_progress& p) {
  const auto& stats = p.stats;
  out.w().StartObject();
  campaign_fields(out, p.campaign);
  out.key("lead_counts");
  out.w().StartObject();
  for (auto status : domain::call_statuses())
    out.field(domain::to_string(status), count_of(stats, domain::to_string(status)));
  out.w().EndObject();
  out.field("answered_count", stats.answered);
  out.field("failed_count", count_of(stats, domain::to_string(domain::call_status::failed)));
  out.field("dialable_count", stats.dialable);
  if (p.next_dial_at)
    out.field("next_dial_at", domain::format_utc(*p.next_dial_at));
  else
    out.null_field("next_dial_at");
  out.field("counts_as_of", domain::format_utc(stats.counted_at));
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

namespace vcs::http {

namespace {

void offset_time(json_out& out, std::string_view key, const std::optional<domain::timestamp>& t) {
  if (t)
    out.field(key, domain::format_offset(*t));
  else
    out.null_field(key);
}

} // namespace

void render_lead(json_out& out, const domain::lead& l,
                 const std::optional<domain::lead_dial_view>* dial) {
  out.w().StartObject();
  out.field("id", encode_global_id(entity::lead, l.id));
  out.field("phone_number", l.phone_number);
  out.field("first_name", l.first_name.value_or(""));
  out.field("last_name", l.last_name.value_or(""));
  out.field("email", l.email.value_or(""));
  out.field("source", l.source);
  out.key("custom_fields");
  out.w().RawValue(l.custom_fields_json.data(), l.custom_fields_json.size(),
                   rapidjson::kObjectType);
  out.field("call_status", l.call_status);
  out.field("call_error_reason", l.call_error_reason);
  out.field("answered", l.answered);
  out.field("answer_type", l.answer_type);
  out.field("attempts_made", l.attempts_made);
  out.field("do_not_call", l.do_not_call);
  out.field("invalid", l.invalid);
  out.field("invalid_reason", l.invalid_reason);
  out.field("priority", l.priority);
  offset_time(out, "next_attempt_after", l.next_attempt_after);
  offset_time(out, "answered_at", l.answered_at);
  out.field("created_at", domain::format_offset(l.created_at));
  out.field("updated_at", domain::format_offset(l.updated_at));
  if (dial && *dial) {
    out.field("dial_state", domain::to_string((*dial)->state));
    offset_time(out, "next_dial_at", (*dial)->next_dial_at);
    out.key("dial_rule");
    render_calling_rule(out, (*dial)->rule);
  } else if (dial) {
    out.null_field("dial_state");
    out.null_field("next_dial_at");
    out.null_field("dial_rule");
  }
  out.w().EndObject();
}

void render_calling_rule(json_out& out, const domain::calling_rule* rule) {
  if (rule == nullptr) {
    out.w().Null();
    return;
  }
  // The tenant's own cap has neither a jurisdiction nor a source.
  const bool own = rule->country.empty();
  out.w().StartObject();
  out.field("id", rule->id);
  if (own)
    out.null_field("jurisdiction");
  else
    out.field("jurisdiction", rule->jurisdiction());
  out.field("kind", domain::to_string(rule->kind));
  out.key("cap");
  if (rule->kind == domain::calling_rule_kind::contact_cap) {
    out.w().StartObject();
    out.field("calls", rule->cap_calls);
    out.field("window_hours", static_cast<int64_t>(rule->cap_window.count()));
    out.w().EndObject();
  } else {
    out.w().Null();
  }
  out.key("source");
  if (own) {
    out.w().Null();
  } else {
    out.w().StartObject();
    out.field("title", rule->source_title);
    out.field("url", rule->source_url);
    out.w().EndObject();
  }
  out.w().EndObject();
}

void render_import_job(json_out& out, const domain::import_job& j) {
  const auto json = domain::import_job_json(j);
  out.w().RawValue(json.data(), json.size(), rapidjson::kObjectType);
}

} // namespace vcs::http
