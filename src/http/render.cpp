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
