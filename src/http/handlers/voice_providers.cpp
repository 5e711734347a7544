#include "domain/control_characters.hpp"
#include "domain/global_id.hpp"
#include "domain/sealed_bindings.hpp"
#include "domain/voice_provider.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/readers.hpp"
#include "http/render.hpp"

#include <algorithm>

namespace vcs::http::handlers {

namespace {

bool belongs_to(domain::voice_provider_kind kind, std::string_view field) {
  const auto& own = domain::credential_fields(kind);
  return std::any_of(own.begin(), own.end(), [&](const auto& f) { return f.name == field; });
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
  json_out creds;
  creds.w().StartObject();
  for (const auto& f : domain::credential_fields(*kind)) {
    std::string name{f.name};
    if (auto v = in.string(name.c_str(), f.required, domain::credential_max_length)) {
      if (domain::has_control_character(*v))
        errors.add(name, "Must not contain control characters (CR, LF, tab or others).");
      else
        creds.field(name, *v);
    }
  }
  creds.w().EndObject();
  // A webhook id needs its secret to verify the provider's callbacks.
  if (*kind == domain::voice_provider_kind::provider_c && in.has("provider_c_webhook_id") &&
      !in.is_null("provider_c_webhook_id") &&
      (!in.has("provider_c_webhook_secret_key") || in.is_null("provider_c_webhook_secret_key")))
    errors.add("provider_c_webhook_secret_key", "Required when provider_c_webhook_id is given.");
  out.credentials_json = creds.take();
  return out;
}

namespace {

// POST /api/v2/voice-pod: credentials are sealed here and never leave the
// process again in clear.
class create_voice_provider_handler final : public handler {
public:
  // The spec's shape: a validation error is `success: false`.
  error_envelope envelope() const override {
    return {[](const domain::error& e) {
      return e.code == domain::errc::bad_request &&
             std::holds_alternative<domain::field_errors>(e.errors);
    }};
  }

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

} // namespace

std::shared_ptr<handler> create_voice_provider() {
  return std::make_shared<create_voice_provider_handler>();
}

} // namespace vcs::http::handlers
