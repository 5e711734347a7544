// The tenant's own keys (/api/v2/api-keys): made, listed, enabled, disabled
// and deleted with a key that holds keys:write (keys:read to list). A key
// never makes or changes a key that reaches more than itself
// (domain::check_within).

#include "domain/global_id.hpp"
#include "domain/permission.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/readers.hpp"
#include "http/render/render.hpp"
#include "storage/api_key_repository.hpp"
#include "storage/assignment_repository.hpp"

namespace vcs::http::handlers {

namespace {

constexpr std::size_t max_scoped_campaigns = 1'000;

std::string key_json(const domain::api_key_info& k, std::optional<std::string_view> secret,
                     std::string_view message) {
  json_out out;
  out.w().StartObject();
  out.field("success", true);
  out.field("message", message);
  out.key("data");
  render_api_key(out, k, secret);
  out.w().EndObject();
  return out.take();
}

// The {key_id} path parameter, or 404 `API key not found`.
domain::result<int64_t> path_key_id(const exchange_ptr& ex) {
  auto id = domain::parse_id(domain::entity::api_key, ex->param("key_id"));
  if (!id)
    return domain::not_found("API key not found");
  return *id;
}

// GET /api/v2/api-keys?page=&page_size=: masked keys, oldest first, a page
// at a time.
class list_keys_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    storage::page_request page;
    if (auto refused = read_page(ex->target, page))
      return ex->fail(*refused);
    respond_page(ex, storage::page_api_keys(ctx.db(), ex->principal->tenant_id, page), page,
                 [](json_out& out, const domain::api_key_info& k) { render_api_key(out, k); });
  }
};

// POST /api/v2/api-keys: the full key is in this answer only.
class create_key_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    auto req = read_key_request(*body, ex->principal->scope, errors);
    if (!req)
      return ex->fail(validation_error(std::move(errors)));
    if (auto refused = domain::check_within(ex->principal->scope, req->second))
      return ex->fail(*refused);
    if (const auto& campaigns = req->second.campaigns) {
      storage::check_campaigns(ctx.db(), ex->principal->tenant_id, *campaigns, errors,
                               "campaign_ids");
      if (!errors.empty())
        return ex->fail(validation_error(std::move(errors)));
    }
    ask_tenant<actors::issued_api_key>(
        ctx.self, ex, ex->principal->tenant_id,
        [ex](actors::issued_api_key& issued) {
          ex->respond(201, key_json(issued.info, issued.key,
                                    "API key created; it is shown only in this answer"));
        },
        std::make_tuple(actors::create_atom::value,
                        actors::api_key_request{std::move(req->first), std::move(req->second)}));
  }
};

// PATCH /api/v2/api-keys/{key_id}: {status: Active | Disabled}.
class update_key_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    auto status = read_key_status(*body, errors);
    if (!status)
      return ex->fail(validation_error(std::move(errors)));
    auto key_id = path_key_id(ex);
    if (!key_id)
      return ex->fail(key_id.err());
    ask_tenant<domain::api_key_info>(
        ctx.self, ex, ex->principal->tenant_id,
        [ex](domain::api_key_info& updated) {
          ex->respond(200, key_json(updated, std::nullopt, "API key updated"));
        },
        std::make_tuple(actors::update_atom::value,
                        actors::api_key_status_change{*key_id, *status, ex->principal->scope}));
  }
};

// DELETE /api/v2/api-keys/{key_id}: the key never authenticates again.
class delete_key_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto key_id = path_key_id(ex);
    if (!key_id)
      return ex->fail(key_id.err());
    ask_tenant<bool>(
        ctx.self, ex, ex->principal->tenant_id,
        [ex](bool&) { ex->respond(200, R"({"success":true,"message":"API key deleted"})"); },
        std::make_tuple(actors::delete_atom::value,
                        actors::api_key_removal{*key_id, ex->principal->scope}));
  }
};

} // namespace

std::optional<std::pair<std::string, domain::key_scope>>
read_key_request(const rapidjson::Value& body, const domain::key_scope& holder,
                 domain::field_errors& errors) {
  object_reader in{body, errors};
  auto name = in.string("name", true, 100);
  domain::key_scope scope = holder;
  if (in.has("permissions") && !in.is_null("permissions")) {
    const auto* given = &body["permissions"];
    if (given->IsString() && std::string_view{given->GetString()} == "read_only")
      scope.permissions = domain::permission_set::read_only();
    else if (!given->IsArray() || given->Empty())
      errors.add("permissions", "Must be \"read_only\" or a non-empty list of permissions such as "
                                "\"campaigns:read\".");
    else {
      scope.permissions = {};
      for (const auto& p : given->GetArray()) {
        auto parsed = p.IsString() ? domain::parse_permission({p.GetString(), p.GetStringLength()})
                                   : std::nullopt;
        if (!parsed) {
          errors.add("permissions", "Unknown permission; valid: " +
                                        domain::join(domain::permission_set::all().names()) + ".");
          break;
        }
        scope.permissions.add(*parsed);
      }
    }
  }
  if (in.has("campaign_ids") && !in.is_null("campaign_ids")) {
    const auto* given = &body["campaign_ids"];
    if (!given->IsArray() || given->Empty() || given->Size() > max_scoped_campaigns)
      errors.add("campaign_ids", "Must be a list of 1 to 1000 campaign ids.");
    else {
      scope.campaigns.emplace();
      for (const auto& c : given->GetArray()) {
        auto id = c.IsString() ? domain::parse_id(domain::entity::campaign,
                                                  {c.GetString(), c.GetStringLength()})
                               : std::nullopt;
        if (!id) {
          errors.add("campaign_ids", "Each must be a campaign id.");
          break;
        }
        scope.campaigns->push_back(*id);
      }
    }
  }
  if (in.has("expires_at") && !in.is_null("expires_at")) {
    auto text = in.string("expires_at", false, 64);
    auto at = text ? domain::parse_iso8601_instant(*text) : std::nullopt;
    if (!at || *at <= domain::now())
      errors.add("expires_at", "Must be a future ISO 8601 timestamp with its offset.");
    else
      scope.expires_at = at;
  }
  if (!errors.empty() || !name)
    return std::nullopt;
  return std::pair{std::move(*name), std::move(scope)};
}

std::optional<domain::api_key_status> read_key_status(const rapidjson::Value& body,
                                                      domain::field_errors& errors) {
  object_reader in{body, errors};
  auto text = in.string("status", true, 16);
  if (!text)
    return std::nullopt;
  auto status = domain::parse_api_key_status(*text);
  if (!status)
    errors.add("status", "Must be Active or Disabled.");
  return status;
}

std::shared_ptr<handler> list_tenant_api_keys() {
  return std::make_shared<list_keys_handler>();
}

std::shared_ptr<handler> create_tenant_api_key() {
  return std::make_shared<create_key_handler>();
}

std::shared_ptr<handler> update_tenant_api_key() {
  return std::make_shared<update_key_handler>();
}

std::shared_ptr<handler> delete_tenant_api_key() {
  return std::make_shared<delete_key_handler>();
}

} // namespace vcs::http::handlers
