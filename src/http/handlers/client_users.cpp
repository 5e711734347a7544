// The tenant's side of its clients' portal users
// (/api/v2/clients/{client_id}/users, …/access): listed with their status
// and last sign-in, disabled or enabled (a disabled user's sessions end at
// once), sent a one-time link to set a new password, and the client's
// access levels replaced.

#include "domain/api_key.hpp"
#include "domain/global_id.hpp"
#include "domain/member.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/inputs/client_access_input.hpp"
#include "http/inputs/json.hpp"
#include "http/render/render.hpp"
#include "storage/client_user_repository.hpp"

namespace vcs::http::handlers {

namespace {

using domain::encode_global_id;
using domain::entity;

// The {client_id} path parameter, or 404 `Client not found`.
domain::result<int64_t> path_client_id(const exchange_ptr& ex) {
  auto id = domain::parse_id(entity::client, ex->param("client_id"));
  if (!id)
    return domain::not_found("Client not found");
  return *id;
}

// The {client_id} and {user_id} path parameters, in that order, or the 404
// of the first that names none (`Client user not found` for the user).
domain::result<std::pair<int64_t, int64_t>> path_client_user(const exchange_ptr& ex) {
  auto client = path_client_id(ex);
  if (!client)
    return client.err();
  auto user = domain::parse_id(entity::client_user, ex->param("user_id"));
  if (!user)
    return domain::not_found("Client user not found");
  return std::pair{*client, *user};
}

void render_client_user(json_out& out, const storage::client_user_info& u) {
  out.w().StartObject();
  out.field("id", encode_global_id(entity::client_user, u.id));
  out.field("email", u.email);
  out.field("status", u.disabled ? "Disabled" : "Active");
  out.field("created_at", domain::format_utc(u.created_at));
  time_field(out, "last_sign_in_at", u.last_sign_in_at);
  out.w().EndObject();
}

std::string user_json(const storage::client_user_info& u, std::string_view message) {
  json_out out;
  out.w().StartObject();
  out.field("success", true);
  out.field("message", message);
  out.key("data");
  render_client_user(out, u);
  out.w().EndObject();
  return out.take();
}

// GET /api/v2/clients/{client_id}/users
class list_client_users_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto client = path_client_id(ex);
    if (!client)
      return ex->fail(client.err());
    auto users = storage::list_client_users(ctx.db(), ex->principal->tenant_id, *client);
    if (!users)
      return ex->fail(domain::not_found("Client not found"));
    json_out out;
    out.w().StartObject();
    out.field("success", true);
    out.key("data");
    out.w().StartArray();
    for (const auto& u : *users)
      render_client_user(out, u);
    out.w().EndArray();
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

// PATCH /api/v2/clients/{client_id}/users/{user_id} {status: Active|Disabled}
class update_client_user_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    auto status = in.string("status", true, 16);
    if (status && *status != "Active" && *status != "Disabled")
      errors.add("status", "Must be Active or Disabled.");
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    auto ids = path_client_user(ex);
    if (!ids)
      return ex->fail(ids.err());
    const auto [client, user_id] = *ids;
    auto user = storage::set_client_user_disabled(ctx.db(), ex->principal->tenant_id, client,
                                                  user_id, *status == "Disabled");
    if (!user)
      return ex->fail(domain::not_found("Client user not found"));
    ex->respond(200, user_json(*user, user->disabled ? "Client user disabled; its sessions ended"
                                                     : "Client user enabled"));
  }
};

// POST /api/v2/clients/{client_id}/users/{user_id}/setup-link: a link to
// /portal/setup that sets a new password, valid 24 h, shown only here.
class client_user_setup_link_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    const auto tenant = ex->principal->tenant_id;
    auto ids = path_client_user(ex);
    if (!ids)
      return ex->fail(ids.err());
    const auto [client, user_id] = *ids;
    const auto token = domain::random_hex_32();
    if (!storage::insert_client_user_link(ctx.db(), tenant, client, user_id,
                                          domain::hash_api_key(token), domain::setup_link_validity))
      return ex->fail(domain::not_found("Client user not found"));
    json_out out;
    out.w().StartObject();
    out.field("success", true);
    out.field("message", "Link made; it is shown only in this answer");
    out.key("data");
    out.w().StartObject();
    setup_link_fields(out, ex->svc.public_url + "/portal/setup#token=" + token);
    out.w().EndObject();
    out.w().EndObject();
    ex->respond(201, out.take());
  }
};

// PUT /api/v2/clients/{client_id}/access {client_access: {kind: level}}:
// replaces the client's access levels whole; its users' sessions read the
// new levels from their next request.
class set_client_access_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    auto it = body->FindMember("client_access");
    std::vector<std::pair<std::string, std::string>> access;
    if (it == body->MemberEnd() || !it->value.IsObject())
      errors.add("client_access", "Must be an object of resource kinds to access levels.");
    else
      access = read_client_access(it->value, errors);
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    auto client = path_client_id(ex);
    if (!client)
      return ex->fail(client.err());
    if (!storage::set_client_access(ctx.db(), ex->principal->tenant_id, *client, access))
      return ex->fail(domain::not_found("Client not found"));
    json_out out;
    out.w().StartObject();
    out.field("success", true);
    out.field("message", "Client access updated");
    out.key("data");
    out.w().StartObject();
    out.key("client_access");
    out.w().StartObject();
    for (const auto& [kind, level] : access)
      out.field(kind, level);
    out.w().EndObject();
    out.w().EndObject();
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

} // namespace

std::shared_ptr<handler> list_client_users() {
  return std::make_shared<list_client_users_handler>();
}

std::shared_ptr<handler> update_client_user() {
  return std::make_shared<update_client_user_handler>();
}

std::shared_ptr<handler> client_user_setup_link() {
  return std::make_shared<client_user_setup_link_handler>();
}

std::shared_ptr<handler> set_client_access() {
  return std::make_shared<set_client_access_handler>();
}

} // namespace vcs::http::handlers
