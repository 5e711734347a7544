#pragma once

// The session routes of an account kind that signs in: members (the
// console, /api/v2/session) and client users (the portal,
// /api/v2/portal/session). Both sign in with a password checked on the CPU
// pool once the throttle (domain/sign_in_throttle.hpp) let the attempt be
// counted, use a
// one-time link, read the session, change the password and sign out; a
// kind says how a sign-in names its account, how its session reads, and
// its statements and cookie.

#include "domain/error.hpp"
#include "domain/tenant.hpp"
#include "domain/timestamp.hpp"
#include "http/inputs/json.hpp"
#include "http/server/member_cookie.hpp"
#include "http/work/handler.hpp"
#include "storage/sign_in.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace soci {
class session;
}

namespace vcs::http::handlers {

class account_kind {
public:
  virtual ~account_kind() = default;
  virtual session_kind cookie() const = 0;
  virtual access signed_in_access() const = 0;
  virtual const storage::account_statements& statements() const = 0;
  // "member" or "client_user": what its throttle keys start with.
  virtual std::string_view name() const = 0;
  // The account a sign-in request's body names (with its throttle key,
  // the same whether or not an account has that name); nullopt with
  // `errors` set when the body is not one.
  virtual std::optional<storage::sign_in_subject> find(soci::session& sql, object_reader& in,
                                                       domain::field_errors& errors) const = 0;
  // The account a signed-in request acts for.
  virtual int64_t account_of(const domain::principal& p) const = 0;
  // Who the session is, as fields of its open data object (the CSRF token
  // and expiry follow); false when the account is gone.
  virtual bool describe(json_out& out, soci::session& sql, int64_t account) const = 0;
};

// POST …/session: signs in.
std::shared_ptr<handler> sign_in_route(std::shared_ptr<const account_kind> kind);
// POST …/session/setup {token, password}: a one-time link sets the password
// (the account's other sessions end) and signs in.
std::shared_ptr<handler> setup_link_route(std::shared_ptr<const account_kind> kind);
// GET …/session: who is signed in, and the session's CSRF token.
std::shared_ptr<handler> current_session_route(std::shared_ptr<const account_kind> kind);
// DELETE …/session: this session ends on every node.
std::shared_ptr<handler> sign_out_route(std::shared_ptr<const account_kind> kind);
// POST …/session/password {current_password, new_password}: every session
// of the account ends, this one too.
std::shared_ptr<handler> change_password_route(std::shared_ptr<const account_kind> kind);

} // namespace vcs::http::handlers
