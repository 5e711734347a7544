// The tenant's members (/api/v2/members): invited with a one-time set-up
// link, given another role, sent a new link, removed. A caller never gives a
// member more than it holds (domain::check_role_within), and a tenant keeps
// an owner who can sign in (domain::check_keeps_an_owner).

#include "domain/api_key.hpp"
#include "domain/global_id.hpp"
#include "domain/member.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/member_links.hpp"
#include "http/handlers/readers.hpp"
#include "http/render/render.hpp"
#include "storage/member_repository.hpp"

#include <soci/soci.h>

namespace vcs::http::handlers {

namespace {

// The {member_id} path parameter, or 404 `Member not found`.
domain::result<int64_t> path_member_id(const exchange_ptr& ex) {
  auto id = domain::parse_id(domain::entity::member, ex->param("member_id"));
  if (!id)
    return domain::not_found("Member not found");
  return *id;
}

// The path's member of the caller's tenant, locked until `sql`'s
// transaction ends, with the tenant's roster; or 404, or 403 for a member
// whose role reaches more than the caller.
domain::result<std::pair<domain::member_info, storage::member_roster>>
lock_path_member(const exchange_ptr& ex, soci::session& sql) {
  const auto tenant = ex->principal->tenant_id;
  auto roster = storage::lock_member_roster(sql, tenant);
  auto id = path_member_id(ex);
  if (!id)
    return id.err();
  auto member = storage::find_member(sql, tenant, *id);
  if (!member)
    return domain::not_found("Member not found");
  if (auto refused = domain::check_role_within(ex->principal->scope, member->role))
    return std::move(*refused);
  return std::pair{std::move(*member), roster};
}

std::string setup_url(const services& svc, std::string_view token) {
  return svc.public_url + "/console/setup#token=" + std::string{token};
}

// GET /api/v2/members: every member, oldest first (at most
// storage::max_members_per_tenant).
class list_members_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto members = storage::list_members(ctx.db(), ex->principal->tenant_id);
    json_out out;
    out.w().StartObject();
    out.field("success", true);
    out.key("data");
    render_members(out, members);
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

// POST /api/v2/members {email, role}: the set-up link is in this answer
// only.
class invite_member_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    auto req = read_member_invitation(*body, errors);
    if (!req)
      return ex->fail(validation_error(std::move(errors)));
    if (auto refused = domain::check_role_within(ex->principal->scope, req->role))
      return ex->fail(*refused);
    auto invited = invite(ctx.db(), ex->svc, ex->principal->tenant_id, *req);
    if (!invited)
      return ex->fail(invited.err());
    ex->respond(std::move(*invited));
  }
};

// PATCH /api/v2/members/{member_id} {role}.
class update_member_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    auto role = read_member_role(*body, errors);
    if (!role)
      return ex->fail(validation_error(std::move(errors)));
    auto updated = change_role(ex, ctx.db(), *role);
    if (!updated)
      return ex->fail(updated.err());
    ex->respond(200, member_json(*updated, "Member updated"));
  }

private:
  // The path member's new role, in one transaction under the roster's lock.
  // It has ended when this returns, before the answer, which releases an
  // Idempotency-Key on the same session.
  static domain::result<domain::member_info> change_role(const exchange_ptr& ex, soci::session& sql,
                                                         domain::member_role role) {
    soci::transaction tx{sql};
    auto locked = lock_path_member(ex, sql);
    if (!locked)
      return locked.err();
    auto& [member, roster] = *locked;
    if (auto refused = domain::check_role_within(ex->principal->scope, role))
      return std::move(*refused);
    if (auto refused = domain::check_keeps_an_owner(member, role, roster.active_owners))
      return std::move(*refused);
    auto updated = storage::set_member_role(sql, member.tenant_id, member.id, role);
    tx.commit();
    return std::move(*updated);
  }
};

// DELETE /api/v2/members/{member_id}: its sessions end at once.
class remove_member_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (auto refused = remove(ex, ctx.db()))
      return ex->fail(*refused);
    ex->respond(200, R"({"success":true,"message":"Member removed"})");
  }

private:
  // As change_role: the transaction has ended before the answer.
  static std::optional<domain::error> remove(const exchange_ptr& ex, soci::session& sql) {
    soci::transaction tx{sql};
    auto locked = lock_path_member(ex, sql);
    if (!locked)
      return locked.err();
    auto& [member, roster] = *locked;
    if (auto refused = domain::check_keeps_an_owner(member, std::nullopt, roster.active_owners))
      return refused;
    storage::delete_member(sql, member.tenant_id, member.id);
    tx.commit();
    return std::nullopt;
  }
};

// POST /api/v2/members/{member_id}/setup-link: a new one-time link (a
// forgotten password); using it sets a password and ends the member's
// sessions.
class member_link_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto& sql = ctx.db();
    auto locked = lock_path_member(ex, sql);
    if (!locked)
      return ex->fail(locked.err());
    ex->respond(new_setup_link(sql, ex->svc, locked->first));
  }
};

} // namespace

domain::result<outbound_response> invite(soci::session& sql, const services& svc, int64_t tenant_id,
                                         const member_invitation& req) {
  const auto token = domain::random_hex_32();
  auto invited =
      storage::invite_member(sql, tenant_id, req.email, req.role, domain::hash_api_key(token));
  using outcome = storage::invitation::outcome;
  if (invited.result == outcome::too_many)
    return domain::error{domain::errc::bad_request,
                         "A tenant may have at most " +
                             std::to_string(storage::max_members_per_tenant) +
                             " members; remove one first"};
  if (invited.result == outcome::email_taken)
    return domain::error{domain::errc::conflict,
                         "This e-mail already belongs to a member of this tenant"};
  return outbound_response{
      201,
      member_json(invited.member, "Member invited; the set-up link is shown only in this answer",
                  setup_url(svc, token))};
}

outbound_response new_setup_link(soci::session& sql, const services& svc,
                                 const domain::member_info& member) {
  const auto token = domain::random_hex_32();
  storage::insert_setup_link(sql, member.id, domain::hash_api_key(token),
                             domain::setup_link_validity);
  return {201, member_json(member, "Set-up link made; it is shown only in this answer",
                           setup_url(svc, token))};
}

std::optional<member_invitation> read_member_invitation(const rapidjson::Value& body,
                                                        domain::field_errors& errors) {
  object_reader in{body, errors};
  auto email = in.string("email", true, 254);
  if (email && !domain::valid_member_email(*email))
    errors.add("email", "Must be an e-mail address of at most 254 characters.");
  auto role = read_member_role(body, errors);
  if (!errors.empty() || !email || !role)
    return std::nullopt;
  return member_invitation{std::move(*email), *role};
}

std::optional<domain::member_role> read_member_role(const rapidjson::Value& body,
                                                    domain::field_errors& errors) {
  object_reader in{body, errors};
  auto text = in.string("role", true, 16);
  if (!text)
    return std::nullopt;
  auto role = domain::parse_member_role(*text);
  if (!role)
    errors.add("role", "Must be owner, admin or viewer.");
  return role;
}

std::shared_ptr<handler> list_members() {
  return std::make_shared<list_members_handler>();
}

std::shared_ptr<handler> invite_member() {
  return std::make_shared<invite_member_handler>();
}

std::shared_ptr<handler> update_member() {
  return std::make_shared<update_member_handler>();
}

std::shared_ptr<handler> remove_member() {
  return std::make_shared<remove_member_handler>();
}

std::shared_ptr<handler> member_setup_link() {
  return std::make_shared<member_link_handler>();
}

} // namespace vcs::http::handlers
