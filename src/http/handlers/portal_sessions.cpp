// A client user's portal session (/api/v2/portal/session): a sign-in names
// the user by its tenant and e-mail (an e-mail is a client user's only
// within its tenant), and the session reads as the user, its client, every
// resource kind's level and whether a payment due shuts the portal. The
// routes are http/handlers/account_sessions.hpp's, with the portal's own
// cookie: a portal session never opens the console, nor a console session
// the portal.

#include "domain/client_access.hpp"
#include "domain/client_create.hpp"
#include "domain/global_id.hpp"
#include "http/handlers/account_sessions.hpp"
#include "http/handlers/handlers.hpp"
#include "storage/client_user_repository.hpp"

namespace vcs::http::handlers {

namespace {

using domain::encode_global_id;
using domain::entity;

class client_user_kind final : public account_kind {
public:
  session_kind cookie() const override { return session_kind::portal; }
  access signed_in_access() const override { return access::client_session; }
  const storage::account_statements& statements() const override {
    return storage::client_user_accounts;
  }

  std::string_view name() const override { return "client_user"; }

  std::optional<storage::sign_in_subject> find(soci::session& sql, object_reader& in,
                                               domain::field_errors& errors) const override {
    auto tenant = in.string("tenant_id", true, 64);
    auto email = in.string("email", true, 254);
    if (!errors.empty())
      return std::nullopt;
    // An unknown tenant is looked up as an unknown e-mail: the answers do
    // not tell them apart.
    return storage::find_client_sign_in(sql, domain::parse_id(entity::tenant, *tenant).value_or(0),
                                        *email);
  }

  int64_t account_of(const domain::principal& p) const override { return p.client->client_user_id; }

  bool describe(json_out& out, soci::session& sql, int64_t account) const override {
    auto who = storage::find_portal_identity(sql, account);
    if (!who)
      return false;
    out.key("user");
    out.w().StartObject();
    out.field("id", encode_global_id(entity::client_user, who->user.id));
    out.field("email", who->user.email);
    out.w().EndObject();
    out.key("client");
    out.w().StartObject();
    out.field("id", encode_global_id(entity::client, who->user.client_id));
    out.field("name", who->client_name);
    out.w().EndObject();
    out.field("tenant_id", encode_global_id(entity::tenant, who->tenant_id));
    out.key("access");
    out.w().StartObject();
    for (const auto& kind : domain::resource_kinds())
      out.field(kind, domain::to_string(domain::level_of(who->access, kind)));
    out.w().EndObject();
    out.field("subscription_status", who->subscription_status);
    out.field("portal_blocked", domain::portal_blocked(who->subscription_status));
    return true;
  }
};

const std::shared_ptr<const account_kind> client_users = std::make_shared<client_user_kind>();

} // namespace

std::shared_ptr<handler> portal_sign_in() {
  return sign_in_route(client_users);
}

std::shared_ptr<handler> use_portal_setup_link() {
  return setup_link_route(client_users);
}

std::shared_ptr<handler> current_portal_session() {
  return current_session_route(client_users);
}

std::shared_ptr<handler> portal_sign_out() {
  return sign_out_route(client_users);
}

std::shared_ptr<handler> change_portal_password() {
  return change_password_route(client_users);
}

} // namespace vcs::http::handlers
