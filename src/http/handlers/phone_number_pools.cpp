// Phone number pools (/api/v2/phone-number-pools): the numbers POOL
// campaigns call from, each under a daily cap (domain/phone_number_pool.hpp).
// Each route reads its input, runs one storage call (its own transaction)
// and renders the pool.

#include "domain/global_id.hpp"
#include "domain/permission.hpp"
#include "domain/phone_number_pool.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/readers.hpp"
#include "http/inputs/pool_input.hpp"
#include "storage/phone_number_pool_repository.hpp"

namespace vcs::http::handlers {

namespace {

using domain::encode_global_id;
using domain::entity;

void render_pool(json_out& out, const domain::phone_number_pool& p) {
  out.w().StartObject();
  out.field("id", encode_global_id(entity::phone_number_pool, p.id));
  out.field("name", p.name);
  out.field("daily_cap_per_number", p.daily_cap_per_number);
  out.field("timezone", p.timezone);
  out.key("numbers");
  out.w().StartArray();
  for (const auto& n : p.numbers) {
    out.w().StartObject();
    out.field("phone_number_id", n.phone_number_id);
    out.field("calls_today", n.calls_today);
    out.w().EndObject();
  }
  out.w().EndArray();
  out.field("calls_left_today", domain::pool_calls_left(p.numbers, p.daily_cap_per_number));
  out.field("created_at", domain::format_utc(p.created_at));
  out.field("updated_at", domain::format_utc(p.updated_at));
  out.w().EndObject();
}

// {success, message?, data}: a read has no message.
std::string pool_json(const domain::phone_number_pool& p, std::string_view message = {}) {
  json_out out;
  out.w().StartObject();
  out.field("success", true);
  if (!message.empty())
    out.field("message", message);
  out.key("data");
  render_pool(out, p);
  out.w().EndObject();
  return out.take();
}

// The body's pool fields, validated (`creating`: name and numbers required).
// A key limited to some campaigns changes no pool.
domain::result<domain::pool_fields> pool_body(const exchange_ptr& ex, bool creating) {
  if (ex->principal->scope.campaigns)
    return domain::pool_change_out_of_scope();
  auto body = object_body(ex);
  if (!body)
    return body.err();
  domain::field_errors errors;
  auto f = read_pool_fields(*body, creating, errors);
  if (!errors.empty())
    return validation_error(std::move(errors));
  return f;
}

// The {pool_id} path parameter, or 404 `Phone number pool not found`.
domain::result<int64_t> path_pool_id(const exchange_ptr& ex) {
  auto id = domain::parse_id(entity::phone_number_pool, ex->param("pool_id"));
  if (!id)
    return domain::phone_number_pool_not_found();
  return *id;
}

// POST /api/v2/phone-number-pools {name, phone_number_ids, daily_cap_per_number?, timezone?}
class create_pool_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto f = pool_body(ex, true);
    if (!f)
      return ex->fail(f.err());
    auto pool = storage::insert_pool(ctx.db(), ex->principal->tenant_id, *f, domain::now());
    if (!pool)
      return ex->fail(domain::error{domain::errc::bad_request,
                                    "A tenant may have at most " +
                                        std::to_string(storage::max_pools_per_tenant) +
                                        " phone number pools; delete one first"});
    ex->respond(201, pool_json(*pool, "Phone number pool created"));
  }
};

// GET /api/v2/phone-number-pools: oldest first, in the contract's list style.
class list_pools_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    storage::page_request page;
    if (auto refused = read_page(ex->target, page))
      return ex->fail(*refused);
    auto found = storage::list_pools(ctx.db(), ex->principal->tenant_id, page, domain::now());
    respond_page(ex, found, page, render_pool);
  }
};

// GET /api/v2/phone-number-pools/{pool_id}
class get_pool_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto id = path_pool_id(ex);
    if (!id)
      return ex->fail(id.err());
    auto pool = storage::find_pool(ctx.db(), ex->principal->tenant_id, *id, domain::now());
    if (!pool)
      return ex->fail(domain::phone_number_pool_not_found());
    ex->respond(200, pool_json(*pool));
  }
};

// PATCH /api/v2/phone-number-pools/{pool_id}: the given fields; given
// numbers replace the pool's.
class update_pool_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto id = path_pool_id(ex);
    if (!id)
      return ex->fail(id.err());
    auto f = pool_body(ex, false);
    if (!f)
      return ex->fail(f.err());
    auto pool = storage::update_pool(ctx.db(), ex->principal->tenant_id, *id, *f, domain::now());
    if (!pool)
      return ex->fail(domain::phone_number_pool_not_found());
    ex->respond(200, pool_json(*pool, "Phone number pool updated"));
  }
};

// DELETE /api/v2/phone-number-pools/{pool_id}: refused while a campaign that
// has not ended uses it.
class delete_pool_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (ex->principal->scope.campaigns)
      return ex->fail(domain::pool_change_out_of_scope());
    auto id = path_pool_id(ex);
    if (!id)
      return ex->fail(id.err());
    switch (storage::delete_pool(ctx.db(), ex->principal->tenant_id, *id)) {
    case storage::pool_removal::not_found:
      return ex->fail(domain::phone_number_pool_not_found());
    case storage::pool_removal::in_use:
      return ex->fail(domain::error{domain::errc::conflict,
                                    "Phone number pool is used by a campaign that has not ended"});
    case storage::pool_removal::removed:
      break;
    }
    ex->respond(200, R"({"success":true,"message":"Phone number pool deleted"})");
  }
};

} // namespace

std::shared_ptr<handler> create_phone_number_pool() {
  return std::make_shared<create_pool_handler>();
}
std::shared_ptr<handler> list_phone_number_pools() {
  return std::make_shared<list_pools_handler>();
}
std::shared_ptr<handler> get_phone_number_pool() {
  return std::make_shared<get_pool_handler>();
}
std::shared_ptr<handler> update_phone_number_pool() {
  return std::make_shared<update_pool_handler>();
}
std::shared_ptr<handler> delete_phone_number_pool() {
  return std::make_shared<delete_pool_handler>();
}

} // namespace vcs::http::handlers
