// A member's session (/api/v2/session), the console's: a sign-in names the
// member by e-mail, and by tenant where the e-mail is a member of several
// (else the first of them the password opens), and the session reads as
// the member, its tenant and its role's permissions. The routes are
// http/handlers/account_sessions.hpp's.

#include "domain/global_id.hpp"
#include "domain/member.hpp"
#include "http/handlers/account_sessions.hpp"
#include "http/handlers/handlers.hpp"
#include "http/render/render.hpp"
#include "storage/member_repository.hpp"

namespace vcs::http::handlers {

namespace {

class member_kind final : public account_kind {
public:
  session_kind cookie() const override { return session_kind::console; }
  access signed_in_access() const override { return access::member_session; }
  const storage::account_statements& statements() const override {
    return storage::member_accounts;
  }

  std::string_view name() const override { return "member"; }

  std::optional<storage::sign_in_subject> find(soci::session& sql, object_reader& in,
                                               domain::field_errors& errors) const override {
    auto email = in.string("email", true, 254);
    auto tenant = in.string("tenant_id", false, 64);
    if (!errors.empty())
      return std::nullopt;
    // An unknown tenant is looked up as an unknown e-mail: the answers do
    // not tell them apart.
    std::optional<int64_t> tenant_id;
    if (tenant)
      tenant_id = domain::parse_id(domain::entity::tenant, *tenant).value_or(0);
    return storage::find_sign_in(sql, *email, tenant_id);
  }

  int64_t account_of(const domain::principal& p) const override { return *p.member_id; }

  bool describe(json_out& out, soci::session& sql, int64_t account) const override {
    auto m = storage::find_member_by_id(sql, account);
    if (!m)
      return false;
    out.key("member");
    render_member(out, *m);
    out.field("tenant_id", domain::encode_global_id(domain::entity::tenant, m->tenant_id));
    out.key("permissions");
    out.w().StartArray();
    for (auto name : domain::role_permissions(m->role).names())
      out.w().String(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    out.w().EndArray();
    return true;
  }
};

const std::shared_ptr<const account_kind> members = std::make_shared<member_kind>();

} // namespace

std::shared_ptr<handler> sign_in() {
  return sign_in_route(members);
}

std::shared_ptr<handler> use_setup_link() {
  return setup_link_route(members);
}

std::shared_ptr<handler> current_session() {
  return current_session_route(members);
}

std::shared_ptr<handler> sign_out() {
  return sign_out_route(members);
}

std::shared_ptr<handler> change_password() {
  return change_password_route(members);
}

} // namespace vcs::http::handlers
