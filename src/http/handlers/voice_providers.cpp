// Voice provider configurations (/api/v2/voice-pod): the contract's
// create, and the list, read, update and delete the service adds
// (docs/decisions/voice-providers.md), with the vendor's own answers about
// it (verify, its assistants and numbers). Credentials are sealed here and
// only ever leave masked (or in a request to their own vendor).

#include "domain/campaign_errors.hpp"
#include "domain/control_characters.hpp"
#include "domain/global_id.hpp"
#include "domain/sealed_bindings.hpp"
#include "domain/voice_provider.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/readers.hpp"
#include "http/render/render.hpp"
#include "outbound/provider_credentials.hpp"
#include "storage/voice_provider_repository.hpp"

#include <algorithm>
#include <map>

namespace vcs::http::handlers {

namespace {

bool belongs_to(domain::voice_provider_kind kind, std::string_view field) {
  const auto& own = domain::credential_fields(kind);
  return std::any_of(own.begin(), own.end(), [&](const auto& f) { return f.name == field; });
}

// One credential as sent, checked; nullopt when absent or refused.
std::optional<std::string> credential_value(object_reader& in, const std::string& name,
                                            bool required, domain::field_errors& errors) {
  auto v = in.string(name.c_str(), required, domain::credential_max_length);
  if (v && domain::has_control_character(*v)) {
    errors.add(name, "Must not contain control characters (CR, LF, tab or others).");
    return std::nullopt;
  }
  return v;
}

// A webhook id needs its secret to verify the provider's callbacks.
void check_webhook_pair(domain::voice_provider_kind kind,
                        const std::map<std::string, std::string>& creds,
                        domain::field_errors& errors) {
  if (kind == domain::voice_provider_kind::provider_c && creds.contains("provider_c_webhook_id") &&
      !creds.contains("provider_c_webhook_secret_key"))
    errors.add("provider_c_webhook_secret_key", "Required when provider_c_webhook_id is given.");
}

// The plaintext that gets sealed: a JSON object of the credential fields.
std::string credentials_json(const std::map<std::string, std::string>& creds) {
  json_out out;
  out.w().StartObject();
  for (const auto& [name, value] : creds)
    out.field(name, value);
  out.w().EndObject();
  return out.take();
}

} // namespace

std::optional<provider_request> read_provider_request(const rapidjson::Value& body,
                                                      domain::field_errors& errors) {
  object_reader in{body, errors};
  provider_request out;
  std::optional<domain::voice_provider_kind> kind;
  if (auto text = in.string("voice_provider", true, 64)) {
    kind = domain::parse_voice_provider(*text);
    if (!kind) {
      errors.add("voice_provider",
                 "Must be one of " + domain::join(domain::voice_provider_names()) + ".");
    }
  }
  if (auto limit = in.integer("concurrency_limit", false, domain::concurrency_limit_min,
                              domain::concurrency_limit_max))
    out.concurrency_limit = static_cast<int32_t>(*limit);
  if (!kind)
    return std::nullopt;
  out.kind = *kind;
  for (const auto& name : domain::all_credential_field_names())
    if (!belongs_to(*kind, name) && in.has(name.c_str()) && !in.is_null(name.c_str()))
      errors.add(name, "Not used by " + std::string{domain::to_string(*kind)} + ".");
  std::map<std::string, std::string> creds;
  for (const auto& f : domain::credential_fields(*kind)) {
    std::string name{f.name};
    if (auto v = credential_value(in, name, f.required, errors))
      creds.emplace(name, std::move(*v));
  }
  check_webhook_pair(*kind, creds, errors);
  out.credentials_json = credentials_json(creds);
  return out;
}

namespace {

using domain::encode_global_id;
using domain::entity;

// A configuration as its reads show it: secret credentials masked, the
// others in clear, and for provider_c the URL its workspace webhook must
// name (provider_a, provider_b and provider_d are given theirs per call).
void render_view(json_out& out, const storage::stored_voice_provider& v, const services& svc) {
  const auto id = encode_global_id(entity::voice_provider, v.config.id);
  out.w().StartObject();
  out.field("voice_provider_id", id);
  out.field("voice_provider", domain::to_string(v.config.kind));
  out.field("concurrency_limit", v.config.concurrency_limit);
  auto creds = outbound::open_credentials(*svc.secrets, v.credentials, v.config.tenant_id);
  if (creds) {
    out.key("credentials");
    out.w().StartObject();
    for (const auto& f : domain::credential_fields(v.config.kind)) {
      auto found = creds->find(std::string{f.name});
      if (found == creds->end())
        continue;
      out.field(f.name, f.secret ? domain::mask_credential(found->second) : found->second);
    }
    out.w().EndObject();
  } else {
    out.null_field("credentials");
  }
  if (v.config.kind == domain::voice_provider_kind::provider_c && !svc.callback_base_url.empty())
    out.field("callback_url", svc.callback_base_url + "/webhooks/provider-c/" + id);
  out.field("campaigns_in_use", v.campaigns_in_use);
  out.field("created_at", domain::format_utc(v.config.created_at));
  out.field("updated_at", domain::format_utc(v.config.updated_at));
  out.w().EndObject();
}

std::string view_json(const storage::stored_voice_provider& v, const services& svc,
                      std::string_view message = {}) {
  json_out out;
  out.w().StartObject();
  out.field("success", true);
  if (!message.empty())
    out.field("message", message);
  out.key("data");
  render_view(out, v, svc);
  out.w().EndObject();
  return out.take();
}

// The spec's shape for this resource: a validation error is `success: false`.
error_envelope success_false_on_validation() {
  return {[](const domain::error& e) {
    return e.code == domain::errc::bad_request &&
           std::holds_alternative<domain::field_errors>(e.errors);
  }};
}

// The {voice_provider_id} path parameter, or 404 `Tenant voice provider not
// found`.
domain::result<int64_t> path_provider_id(const exchange_ptr& ex) {
  auto id = domain::parse_id(entity::voice_provider, ex->param("voice_provider_id"));
  if (!id)
    return domain::voice_provider_not_found(ex->param("voice_provider_id"));
  return *id;
}

// The path's configuration for a change: a key held to some campaigns
// changes none (others' campaigns may use it).
domain::result<int64_t> changeable_provider_id(const exchange_ptr& ex) {
  if (ex->principal->scope.campaigns)
    return domain::voice_provider_change_out_of_scope();
  return path_provider_id(ex);
}

// A PATCH body before the stored kind is known: each credential field of
// any provider it names, with nullopt for null (remove it).
struct provider_patch {
  std::optional<std::string> kind_as_sent;
  std::optional<int32_t> concurrency_limit;
  std::map<std::string, std::optional<std::string>> credentials;
};

std::optional<provider_patch> read_patch(const rapidjson::Value& body,
                                         domain::field_errors& errors) {
  object_reader in{body, errors};
  provider_patch out;
  out.kind_as_sent = in.string("voice_provider", false, 64);
  if (auto limit = in.integer("concurrency_limit", false, domain::concurrency_limit_min,
                              domain::concurrency_limit_max))
    out.concurrency_limit = static_cast<int32_t>(*limit);
  for (const auto& name : domain::all_credential_field_names()) {
    if (!in.has(name.c_str()))
      continue;
    if (in.is_null(name.c_str()))
      out.credentials.emplace(name, std::nullopt);
    else if (auto v = credential_value(in, name, false, errors))
      out.credentials.emplace(name, std::move(*v));
  }
  if (!errors.empty())
    return std::nullopt;
  return out;
}

// The stored credentials with the patch applied, checked against the
// stored kind, sealed again.
domain::result<domain::secret_box::sealed>
rewrite_credentials(const provider_patch& patch, domain::voice_provider_kind kind,
                    const domain::secret_box::sealed& stored, const domain::secret_box& secrets,
                    int64_t tenant_id) {
  domain::field_errors errors;
  if (patch.kind_as_sent && *patch.kind_as_sent != domain::to_string(kind))
    errors.add("voice_provider",
               "Cannot be changed; register a new configuration for " + *patch.kind_as_sent + ".");
  auto creds = outbound::open_credentials(secrets, stored, tenant_id);
  if (!creds)
    return domain::error{domain::errc::conflict,
                         "The stored credentials cannot be read; register the configuration "
                         "again"};
  for (const auto& [name, value] : patch.credentials) {
    const auto& own = domain::credential_fields(kind);
    auto f = std::find_if(own.begin(), own.end(), [&](const auto& c) { return c.name == name; });
    if (f == own.end())
      errors.add(name, "Not used by " + std::string{domain::to_string(kind)} + ".");
    else if (!value && f->required)
      errors.add(name, "Required; it can be replaced but not removed.");
    else if (value)
      (*creds)[name] = *value;
    else
      creds->erase(name);
  }
  check_webhook_pair(kind, *creds, errors);
  if (!errors.empty())
    return validation_error(std::move(errors));
  return secrets.seal(credentials_json(*creds), domain::voice_provider_binding(tenant_id));
}

// POST /api/v2/voice-pod: credentials are sealed here and never leave the
// process again in clear.
class create_voice_provider_handler final : public handler {
public:
  error_envelope envelope() const override { return success_false_on_validation(); }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    auto req = read_provider_request(*body, errors);
    if (!errors.empty() || !req)
      return ex->fail(validation_error(std::move(errors)));
    auto tenant_id = ex->principal->tenant_id;
    actors::voice_provider_create msg;
    msg.kind = req->kind;
    msg.concurrency_limit = req->concurrency_limit;
    msg.credentials =
        ex->svc.secrets->seal(req->credentials_json, domain::voice_provider_binding(tenant_id));
    ask_tenant<domain::voice_provider_config>(
        ctx.self, ex, tenant_id,
        [ex](domain::voice_provider_config& created) {
          json_out out;
          out.w().StartObject();
          out.field("success", true);
          out.field("message", "Voice provider configuration created successfully");
          out.key("data");
          render_voice_provider(out, created);
          out.w().EndObject();
          ex->respond(201, out.take());
        },
        std::make_tuple(actors::create_atom::value, std::move(msg)));
  }
};

// GET /api/v2/voice-pod: oldest first, in the contract's list style.
class list_voice_providers_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    storage::page_request page;
    if (auto refused = read_page(ex->target, page))
      return ex->fail(*refused);
    auto found = storage::list_voice_providers(ctx.db(), ex->principal->tenant_id, page);
    respond_page(ex, found, page,
                 [&svc = ex->svc](json_out& out, const auto& v) { render_view(out, v, svc); });
  }
};

// GET /api/v2/voice-pod/{voice_provider_id}
class get_voice_provider_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto id = path_provider_id(ex);
    if (!id)
      return ex->fail(id.err());
    auto found = storage::find_voice_provider(ctx.db(), ex->principal->tenant_id, *id);
    if (!found)
      return ex->fail(domain::voice_provider_not_found(ex->param("voice_provider_id")));
    ex->respond(200, view_json(*found, ex->svc));
  }
};

// PATCH /api/v2/voice-pod/{voice_provider_id}: concurrency_limit and the
// credential fields given (a new value replaces, null removes an optional
// one); the provider itself stays.
class update_voice_provider_handler final : public handler {
public:
  error_envelope envelope() const override { return success_false_on_validation(); }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto id = changeable_provider_id(ex);
    if (!id)
      return ex->fail(id.err());
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    auto patch = read_patch(*body, errors);
    if (!patch)
      return ex->fail(validation_error(std::move(errors)));
    const auto tenant_id = ex->principal->tenant_id;
    auto updated = storage::update_voice_provider(
        ctx.db(), tenant_id, *id,
        [&](domain::voice_provider_kind kind, const domain::secret_box::sealed& stored) {
          return rewrite_credentials(*patch, kind, stored, *ex->svc.secrets, tenant_id);
        },
        patch->concurrency_limit);
    if (!updated)
      return ex->fail(domain::voice_provider_not_found(ex->param("voice_provider_id")));
    if (!*updated)
      return ex->fail(updated->err());
    ex->respond(200, view_json(**updated, ex->svc, "Voice provider configuration updated"));
  }
};

// DELETE /api/v2/voice-pod/{voice_provider_id}: refused while a campaign
// that has not ended uses it, or a call of it waits for its end report.
class delete_voice_provider_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto id = changeable_provider_id(ex);
    if (!id)
      return ex->fail(id.err());
    switch (storage::delete_voice_provider(ctx.db(), ex->principal->tenant_id, *id)) {
    case storage::voice_provider_removal::not_found:
      return ex->fail(domain::voice_provider_not_found(ex->param("voice_provider_id")));
    case storage::voice_provider_removal::campaigns_use_it:
      return ex->fail(domain::voice_provider_in_use(
          "a campaign that has not ended uses it; end the campaign or give it another "
          "provider first"));
    case storage::voice_provider_removal::calls_open:
      return ex->fail(domain::voice_provider_in_use(
          "a call placed through it has not ended yet; try again once it has"));
    case storage::voice_provider_removal::removed:
      break;
    }
    ex->respond(200, R"({"success":true,"message":"Voice provider configuration deleted"})");
  }
};

// What an inquiry of this configuration asks, or nullopt (answered 404).
std::optional<actors::provider_inquiry> inquiry_of(const exchange_ptr& ex, worker_context& ctx,
                                                   actors::inquiry_kind what) {
  auto id = path_provider_id(ex);
  if (!id)
    return std::nullopt;
  auto found = storage::find_voice_provider(ctx.db(), ex->principal->tenant_id, *id);
  if (!found)
    return std::nullopt;
  actors::provider_inquiry q;
  q.tenant_id = ex->principal->tenant_id;
  q.voice_provider_id = *id;
  q.provider_kind = std::string{domain::to_string(found->config.kind)};
  q.credentials = std::move(found->credentials);
  q.version = found->config.updated_at.time_since_epoch().count();
  q.what = what;
  return q;
}

// POST /api/v2/voice-pod/{voice_provider_id}/verify: asks the vendor, with
// a short deadline, whether the credentials work; the answer says so
// either way (200), naming what the vendor did.
class verify_voice_provider_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto q = inquiry_of(ex, ctx, actors::inquiry_kind::verify);
    if (!q)
      return ex->fail(domain::voice_provider_not_found(ex->param("voice_provider_id")));
    const auto id = ex->param("voice_provider_id");
    ask_tenant<actors::inquiry_result>(
        ctx.self, ex, q->tenant_id,
        [ex, id = std::string{id}](actors::inquiry_result& r) {
          json_out out;
          out.w().StartObject();
          out.field("success", true);
          out.key("data");
          out.w().StartObject();
          out.field("voice_provider_id", id);
          out.field("verified", r.outcome == actors::inquiry_outcome::ok);
          out.field("outcome", actors::to_string(r.outcome));
          if (r.vendor_status)
            out.field("vendor_status", static_cast<int64_t>(r.vendor_status));
          else
            out.null_field("vendor_status");
          out.field("detail", r.detail);
          out.field("simulated", r.simulated);
          out.field("checked_at", domain::format_utc(domain::now()));
          out.w().EndObject();
          out.w().EndObject();
          ex->respond(200, out.take());
        },
        std::make_tuple(actors::inquire_atom::value, std::move(*q)));
  }
};

// GET /api/v2/voice-pod/{voice_provider_id}/assistants and /phone-numbers:
// the vendor account's first inquiry_items_max, for a page's pickers
// (answered from this node's memory for a minute); 502 naming what the
// vendor did when it gave none.
class vendor_list_handler final : public handler {
public:
  explicit vendor_list_handler(actors::inquiry_kind what) : what_(what) {}

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto q = inquiry_of(ex, ctx, what_);
    if (!q)
      return ex->fail(domain::voice_provider_not_found(ex->param("voice_provider_id")));
    ask_tenant<actors::inquiry_result>(
        ctx.self, ex, q->tenant_id,
        [ex](actors::inquiry_result& r) {
          if (r.outcome != actors::inquiry_outcome::ok)
            return ex->fail(domain::error{domain::errc::upstream_failed, r.detail}.with_detail(
                std::string{actors::to_string(r.outcome)}));
          json_out out;
          out.w().StartObject();
          out.key("data");
          out.w().StartArray();
          for (const auto& item : r.items) {
            out.w().StartObject();
            out.field("id", item.id);
            out.field("name", item.name);
            out.field("number", item.number);
            out.w().EndObject();
          }
          out.w().EndArray();
          out.key("meta");
          out.w().StartObject();
          out.field("count", static_cast<int64_t>(r.items.size()));
          out.field("truncated", r.truncated);
          out.field("simulated", r.simulated);
          out.w().EndObject();
          out.w().EndObject();
          ex->respond(200, out.take());
        },
        std::make_tuple(actors::inquire_atom::value, std::move(*q)));
  }

private:
  actors::inquiry_kind what_;
};

} // namespace

std::shared_ptr<handler> create_voice_provider() {
  return std::make_shared<create_voice_provider_handler>();
}
std::shared_ptr<handler> list_voice_providers() {
  return std::make_shared<list_voice_providers_handler>();
}
std::shared_ptr<handler> get_voice_provider() {
  return std::make_shared<get_voice_provider_handler>();
}
std::shared_ptr<handler> update_voice_provider() {
  return std::make_shared<update_voice_provider_handler>();
}
std::shared_ptr<handler> delete_voice_provider() {
  return std::make_shared<delete_voice_provider_handler>();
}
std::shared_ptr<handler> verify_voice_provider() {
  return std::make_shared<verify_voice_provider_handler>();
}
std::shared_ptr<handler> list_provider_assistants() {
  return std::make_shared<vendor_list_handler>(actors::inquiry_kind::assistants);
}
std::shared_ptr<handler> list_provider_phone_numbers() {
  return std::make_shared<vendor_list_handler>(actors::inquiry_kind::phone_numbers);
}

} // namespace vcs::http::handlers
