#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lookup.hpp"
#include "http/handlers/readers.hpp"
#include "http/render/render.hpp"
#include "storage/api_key_repository.hpp"

namespace vcs::http::handlers {

namespace {

std::string key_json(const domain::api_key_info& k) {
  json_out out;
  render_api_key(out, k);
  return out.take();
}

// POST /admin/v1/tenants/{tenant_id}/api-keys
class create_api_key_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    auto name = in.string("name", true, 100);
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    ask_tenant<actors::issued_api_key>(
        ctx.self, ex, t->id,
        [ex](actors::issued_api_key& issued) {
          json_out out;
          render_api_key(out, issued.info, issued.key);
          ex->respond(201, out.take());
        },
        std::make_tuple(actors::create_atom::value, actors::api_key_request{std::move(*name)}));
  }
};

// GET /admin/v1/tenants/{tenant_id}/api-keys: masked keys only.
class list_api_keys_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    ex->respond(200, api_keys_json("api_keys", storage::list_api_keys(ctx.db(), t->id)));
  }
};

// PATCH /admin/v1/api-keys/{key_id}: {status: Active | Disabled}.
class update_api_key_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    auto status = read_key_status(*body, errors);
    if (!status)
      return ex->fail(validation_error(std::move(errors)));
    auto key = path_api_key(ex, ctx);
    if (!key)
      return ex->fail(key.err());
    ask_tenant<domain::api_key_info>(
        ctx.self, ex, key->tenant_id,
        [ex](domain::api_key_info& updated) { ex->respond(200, key_json(updated)); },
        std::make_tuple(actors::update_atom::value,
                        actors::api_key_status_change{key->id, *status}));
  }
};

// DELETE /admin/v1/api-keys/{key_id}: the key never authenticates again.
class delete_api_key_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto key = path_api_key(ex, ctx);
    if (!key)
      return ex->fail(key.err());
    ask_tenant<bool>(
        ctx.self, ex, key->tenant_id,
        [ex](bool&) { ex->respond(200, message_json("API key deleted")); },
        std::make_tuple(actors::delete_atom::value, actors::api_key_removal{key->id}));
  }
};

} // namespace

std::shared_ptr<handler> create_api_key() {
  return std::make_shared<create_api_key_handler>();
}

std::shared_ptr<handler> list_api_keys() {
  return std::make_shared<list_api_keys_handler>();
}

std::shared_ptr<handler> update_api_key() {
  return std::make_shared<update_api_key_handler>();
}

std::shared_ptr<handler> delete_api_key() {
  return std::make_shared<delete_api_key_handler>();
}

} // namespace vcs::http::handlers
