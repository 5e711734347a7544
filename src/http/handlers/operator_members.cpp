// A tenant's members on the operator plane: the operator makes a tenant's
// first owner (or any member) and prints its one-time set-up link, and
// makes a new link for a member who lost its password.

#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lookup.hpp"
#include "http/handlers/member_links.hpp"
#include "http/render/render.hpp"
#include "storage/member_repository.hpp"

namespace vcs::http::handlers {

namespace {

// POST /admin/v1/tenants/{tenant_id}/members {email, role?}: an owner
// unless another role is named.
class create_member_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    if (!body->HasMember("role"))
      body->AddMember("role", "owner", body->GetAllocator());
    domain::field_errors errors;
    auto req = read_member_invitation(*body, errors);
    if (!req)
      return ex->fail(validation_error(std::move(errors)));
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    auto invited = invite(ctx.db(), ex->svc, t->id, *req);
    if (!invited)
      return ex->fail(invited.err());
    ex->respond(std::move(*invited));
  }
};

// GET /admin/v1/tenants/{tenant_id}/members
class list_members_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    auto members = storage::list_members(ctx.db(), t->id);
    json_out out;
    out.w().StartObject();
    out.key("members");
    render_members(out, members);
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

// POST /admin/v1/tenants/{tenant_id}/members/{member_id}/setup-link
class member_link_handler final : public operator_handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto t = path_tenant(ex, ctx);
    if (!t)
      return ex->fail(t.err());
    auto id = domain::parse_id(domain::entity::member, ex->param("member_id"));
    auto member = id ? storage::find_member(ctx.db(), t->id, *id) : std::nullopt;
    if (!member)
      return ex->fail(domain::not_found("Member not found"));
    ex->respond(new_setup_link(ctx.db(), ex->svc, *member));
  }
};

} // namespace

std::shared_ptr<handler> operator_create_member() {
  return std::make_shared<create_member_handler>();
}

std::shared_ptr<handler> operator_list_members() {
  return std::make_shared<list_members_handler>();
}

std::shared_ptr<handler> operator_member_setup_link() {
  return std::make_shared<member_link_handler>();
}

} // namespace vcs::http::handlers
