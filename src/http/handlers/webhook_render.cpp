#include "http/handlers/webhook_render.hpp"

#include "domain/global_id.hpp"
#include "domain/sealed_bindings.hpp"
#include "domain/standard_webhook.hpp"
#include "domain/webhook_signature.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/listing.hpp"
#include "http/render/render.hpp"

namespace vcs::http::handlers {

namespace {

constexpr int64_t default_grace_seconds = 24 * 3600;
constexpr int64_t max_grace_seconds = 7 * 24 * 3600;

} // namespace

void render_delivery(json_out& out, const storage::webhook_delivery& d) {
  out.w().StartObject();
  out.field("id", std::to_string(d.id));
  out.field("event_id", d.event_id);
  out.field("event_type", d.event_type);
  global_id_field(out, "campaign_id", domain::entity::campaign, d.campaign_id);
  out.field("url", d.url);
  out.field("status", d.status);
  out.field("attempts", d.attempts);
  time_field(out, "next_attempt_at",
             d.status == "pending" ? std::optional<domain::timestamp>{d.next_attempt_at}
                                   : std::nullopt);
  out.field("last_status", d.last_status);
  out.field("last_error", d.last_error);
  out.field("created_at", domain::format_utc(d.created_at));
  time_field(out, "delivered_at", d.delivered_at);
  out.key("payload");
  out.w().RawValue(d.payload.data(), d.payload.size(), rapidjson::kObjectType);
  out.w().EndObject();
}

void render_endpoint(json_out& out, const storage::webhook_endpoint& e) {
  out.w().StartObject();
  out.field("id", std::to_string(e.id));
  out.field("url", e.url);
  out.field("status", e.status);
  time_field(out, "failing_since", e.failing_since);
  time_field(out, "last_success_at", e.last_success_at);
  time_field(out, "last_failure_at", e.last_failure_at);
  time_field(out, "disabled_at", e.disabled_at);
  out.field("disabled_reason", e.disabled_reason);
  out.field("created_at", domain::format_utc(e.created_at));
  out.w().EndObject();
}

namespace {

// The grace period of the optional body, or the 400 for a bad body.
domain::result<int32_t> grace_period_body(const exchange_ptr& ex) {
  if (ex->request.body.empty())
    return static_cast<int32_t>(default_grace_seconds);
  auto body = object_body(ex);
  if (!body)
    return body.err();
  domain::field_errors errors;
  object_reader in{*body, errors};
  auto grace = in.integer("grace_period_seconds", false, 0, max_grace_seconds);
  if (!errors.empty())
    return validation_error(std::move(errors));
  return static_cast<int32_t>(grace.value_or(default_grace_seconds));
}

} // namespace

domain::result<secret_request> rotation_request(const exchange_ptr& ex, int64_t tenant_id) {
  auto grace = grace_period_body(ex);
  if (!grace)
    return grace.err();
  auto secret = domain::new_webhook_secret();
  actors::webhook_secret_set message{
      ex->svc.secrets->seal(secret, domain::webhook_secret_binding(tenant_id)), *grace};
  return secret_request{std::move(secret), std::move(message)};
}

void respond_rotation(const exchange_ptr& ex, const std::string& secret,
                      const storage::secret_rotation& rotation) {
  json_out out;
  out.w().StartObject();
  out.field("status", "success");
  out.field("message", "Webhook secret created; it is shown only once");
  out.key("data");
  out.w().StartObject();
  out.field("webhook_secret", secret);
  time_field(out, "previous_secret_expires_at", rotation.previous_expires_at);
  out.key("signature_headers");
  out.w().StartArray();
  for (auto name : {domain::webhook_id_header, domain::webhook_timestamp_header,
                    domain::webhook_signature_header, domain::legacy_signature_header})
    out.w().String(name.data(), static_cast<rapidjson::SizeType>(name.size()));
  out.w().EndArray();
  out.w().EndObject();
  out.w().EndObject();
  ex->respond(201, out.take());
}

} // namespace vcs::http::handlers
