#include "domain/api_key.hpp"
#include "domain/global_id.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/listing.hpp"
#include "http/handlers/lookup.hpp"
#include "http/handlers/readers.hpp"
#include "http/render/render.hpp"
#include "storage/api_key_repository.hpp"
#include "storage/tenant_repository.hpp"

#include <soci/soci.h>

namespace vcs::http::handlers {

namespace {

constexpr int64_t max_campaign_limit = 1'000'000;

std::string tenant_json(const domain::tenant& t) {
  json_out out;
  out.w().StartObject();
  render_tenant_fields(out, t);
  out.w().EndObject();
  return out.take();
}

std::optional<domain::plan> read_plan(object_reader& in, domain::field_errors& errors,
                                      bool required) {
  auto text = in.string("plan", required, 32);
  if (!text)
    return std::nullopt;
  auto p = domain::parse_plan(*text);
  if (!p)
    errors.add("plan", "Must be one of FREE, STARTER, PRO, ENTERPRISE.");
  return p;
}

// `contact_cap`: {calls, window_hours}, or null for none (the outer
// optional: given at all).
std::optional<std::optional<domain::tenant_contact_cap>>
read_contact_cap(const rapidjson::Value& body, domain::field_errors& errors) {
  const auto member = body.FindMember("contact_cap");
  if (member == body.MemberEnd())
    return std::nullopt;
  if (member->value.IsNull())
    return std::optional<domain::tenant_contact_cap>{};
  if (!member->value.IsObject()) {
    errors.add("contact_cap", "Give an object with calls and window_hours, or null for none.");
    return std::nullopt;
  }
  domain::field_errors inner;
  object_reader cap{member->value, inner};
  const auto calls = cap.integer("calls", true, 1, domain::max_tenant_cap_calls);
  const auto hours = cap.integer("window_hours", true, 1, domain::max_tenant_cap_hours);
  errors.merge("contact_cap", inner);
  if (!calls || !hours)
    return std::nullopt;
  return domain::tenant_contact_cap{static_cast<int32_t>(*calls), std::chrono::hours{*hours}};
}

// POST /admin/v1/tenants: the tenant and its first key, in one transaction.
class create_tenant_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    auto name = in.string("name", true, 200);
    auto plan = read_plan(in, errors, true);
    auto limit = in.integer("campaign_limit", false, 0, max_campaign_limit);
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    auto& sql = ctx.db();
    auto key = domain::generate_api_key();
    soci::transaction tx{sql};
    auto tenant = storage::insert_tenant(
        sql, *name, *plan,
        limit ? std::optional<int32_t>(static_cast<int32_t>(*limit)) : std::nullopt);
    auto info = storage::insert_api_key(sql, tenant.id, "default", key.hash, key.masked_key);
    tx.commit();
    json_out out;
    out.w().StartObject();
    render_tenant_fields(out, tenant);
    out.key("api_key");
    render_api_key(out, info, key.key);
    out.w().EndObject();
    ex->respond(201, out.take());
  }
};

// GET /admin/v1/tenants?after=&active=&limit=: keyset pages in id order;
// `next_after` names the page's last tenant when there may be more.
class list_tenants_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    std::optional<int64_t> after;
    std::optional<bool> active;
    if (auto refused = read_id_param(ex->target, "after", domain::entity::tenant, after))
      return ex->fail(*refused);
    if (auto refused = read_flag(ex->target, "active", active))
      return ex->fail(*refused);
    auto limit = limit_param(*ex);
    if (!limit)
      return ex->fail(limit.err());
    auto tenants = storage::list_tenants(ctx.db(), after.value_or(0), active, *limit);
    json_out out;
    out.w().StartObject();
    out.key("tenants");
    out.w().StartArray();
    for (const auto& t : tenants) {
      out.w().StartObject();
      render_tenant_fields(out, t);
      out.w().EndObject();
    }
    out.w().EndArray();
    if (tenants.size() == static_cast<std::size_t>(*limit))
      out.field("next_after", encode_global_id(domain::entity::tenant, tenants.back().id));
    else
      out.null_field("next_after");
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

// GET /admin/v1/tenants/{tenant_id}
class get_tenant_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    ex->respond(200, tenant_json(*t));
  }
};

// PATCH /admin/v1/tenants/{tenant_id}: through the tenant's actor.
class update_tenant_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    domain::tenant_patch patch;
    patch.name = in.string("name", false, 200);
    patch.plan = read_plan(in, errors, false);
    if (in.is_null("campaign_limit"))
      patch.campaign_limit = std::optional<int32_t>{};
    else if (auto limit = in.integer("campaign_limit", false, 0, max_campaign_limit))
      patch.campaign_limit = std::optional<int32_t>{static_cast<int32_t>(*limit)};
    patch.active = in.boolean("active", false);
    if (auto purpose = in.string("calling_purpose", false, 20)) {
      patch.calling_purpose_default = domain::parse_calling_purpose(*purpose);
      if (!patch.calling_purpose_default)
        errors.add("calling_purpose", "Choose NONE, TELEMARKETING or INFORMATIONAL.");
    }
    patch.contact_cap = read_contact_cap(*body, errors);
    if (errors.empty() && !patch.name && !patch.plan && !patch.campaign_limit && !patch.active &&
        !patch.calling_purpose_default && !patch.contact_cap)
      errors.add("non_field_errors", "Provide at least one of name, plan, campaign_limit, active, "
                                     "calling_purpose, contact_cap.");
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    ask_tenant<domain::tenant>(
        ctx.self, ex, t->id,
        [ex](domain::tenant& updated) { ex->respond(200, tenant_json(updated)); },
        std::make_tuple(actors::update_atom::value, std::move(patch)));
  }
};

} // namespace

std::shared_ptr<handler> create_tenant() {
  return std::make_shared<create_tenant_handler>();
}

std::shared_ptr<handler> list_tenants() {
  return std::make_shared<list_tenants_handler>();
}

std::shared_ptr<handler> get_tenant() {
  return std::make_shared<get_tenant_handler>();
}

std::shared_ptr<handler> update_tenant() {
  return std::make_shared<update_tenant_handler>();
}

} // namespace vcs::http::handlers
