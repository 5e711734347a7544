// A member's session (/api/v2/session): signing in with e-mail and
// password, using a one-time set-up link, reading the session, changing the
// password and signing out. Passwords are checked and hashed on the CPU
// pool; the throttle (domain/sign_in_throttle.hpp) is read before, so a
// throttled guess costs no hashing.

#include "domain/api_key.hpp"
#include "domain/global_id.hpp"
#include "domain/member.hpp"
#include "domain/password.hpp"
#include "domain/sign_in_throttle.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/member_cookie.hpp"
#include "http/on_cpu_pool.hpp"
#include "http/render.hpp"
#include "http/request_error.hpp"
#include "storage/member_repository.hpp"

#include <soci/soci.h>

namespace vcs::http::handlers {

namespace {

// A browser signs in only from this service's own pages (login CSRF).
void require_same_origin(const exchange_ptr& ex) {
  if (!same_origin(ex->request.origin, ex->request.host))
    throw request_error({domain::errc::forbidden, "This request's Origin is not this service's"});
}

std::optional<std::string> read_password(object_reader& in, const char* name,
                                         domain::field_errors& errors) {
  auto p = in.string(name, true, domain::password_max_length);
  if (p && p->size() < domain::password_min_length)
    errors.add(name, "Must be " + std::to_string(domain::password_min_length) + " to " +
                         std::to_string(domain::password_max_length) + " characters.");
  return p;
}

void render_session(json_out& out, const domain::member_info& m, std::string_view csrf_token,
                    domain::timestamp expires_at) {
  out.w().StartObject();
  out.key("member");
  render_member(out, m);
  out.field("tenant_id", domain::encode_global_id(domain::entity::tenant, m.tenant_id));
  out.key("permissions");
  out.w().StartArray();
  for (auto name : domain::role_permissions(m.role).names())
    out.w().String(name.data(), static_cast<rapidjson::SizeType>(name.size()));
  out.w().EndArray();
  out.field("csrf_token", csrf_token);
  out.field("expires_at", domain::format_utc(expires_at));
  out.field(
      "idle_timeout_seconds",
      static_cast<int64_t>(
          std::chrono::duration_cast<std::chrono::seconds>(domain::session_idle_timeout).count()));
  out.w().EndObject();
}

// Signs the member in within `tx`: its failures forgotten, a new session,
// and once that has committed the 201 with the session's cookie.
void sign_in_member(const exchange_ptr& ex, soci::session& sql, soci::transaction& tx,
                    int64_t member_id, std::string_view message) {
  storage::record_sign_in(sql, member_id);
  auto member = storage::find_member_by_id(sql, member_id);
  const auto token = domain::random_hex_32();
  const auto csrf = domain::random_hex_32();
  auto expires_at = storage::open_session(sql, member_id, domain::hash_api_key(token), csrf);
  json_out out;
  out.w().StartObject();
  out.field("success", true);
  out.field("message", message);
  out.key("data");
  render_session(out, *member, csrf, expires_at);
  out.w().EndObject();
  outbound_response r{201, out.take()};
  r.headers.emplace_back(
      "Set-Cookie",
      session_cookie_header(
          token,
          std::chrono::duration_cast<std::chrono::seconds>(domain::session_lifetime).count()));
  r.headers.emplace_back("Cache-Control", "no-store");
  tx.commit();
  ex->respond(std::move(r));
}

domain::error throttled(int64_t wait, const exchange_ptr& ex) {
  ex->response_headers.emplace_back("Retry-After", std::to_string(wait));
  return {domain::errc::too_many_requests,
          "Too many failed sign-ins; try again in " + std::to_string(wait) + " seconds"};
}

// POST /api/v2/session {email, password}
class sign_in_handler final : public handler {
public:
  access required_access() const override { return access::none; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    require_same_origin(ex);
    auto body = object_body(ex);
    domain::field_errors errors;
    object_reader in{body, errors};
    auto email = in.string("email", true, 254);
    auto password = in.string("password", true, domain::password_max_length);
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    auto subject = storage::find_sign_in(ctx.db(), *email, ex->request.address);
    if (auto wait = std::max(subject.account_wait, subject.address_wait); wait > 0)
      return ex->fail(throttled(wait, ex));
    on_cpu_pool(
        ex, ctx,
        [hash = subject.password_hash, password = std::move(*password)] {
          return domain::verify_password(hash, password);
        },
        [ex, subject](worker_context& ctx, bool& matches) {
          auto& sql = ctx.db();
          if (!matches) {
            storage::record_failed_sign_in(sql, subject.member_id, ex->request.address);
            return ex->fail({domain::errc::unauthorized, "Wrong e-mail or password"});
          }
          if (!subject.tenant_active)
            return ex->fail({domain::errc::forbidden, "Tenant is inactive"});
          soci::transaction tx{sql};
          sign_in_member(ex, sql, tx, *subject.member_id, "Signed in");
        });
  }
};

// POST /api/v2/session/setup {token, password}: uses a one-time set-up link
// (a new member's, or a new password's) and signs in; the member's other
// sessions end.
class use_setup_link_handler final : public handler {
public:
  access required_access() const override { return access::none; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    require_same_origin(ex);
    auto body = object_body(ex);
    domain::field_errors errors;
    object_reader in{body, errors};
    auto token = in.string("token", true, 64);
    auto password = read_password(in, "password", errors);
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    on_cpu_pool(
        ex, ctx, [password = std::move(*password)] { return domain::hash_password(password); },
        [ex, token = std::move(*token)](worker_context& ctx, std::string& hash) {
          auto& sql = ctx.db();
          soci::transaction tx{sql};
          auto member_id = storage::use_setup_link(sql, domain::hash_api_key(token));
          if (!member_id)
            return ex->fail(
                {domain::errc::not_found, "This set-up link is unknown, used or expired"});
          storage::set_member_password(sql, *member_id, hash);
          sign_in_member(ex, sql, tx, *member_id, "Password set; signed in");
        });
  }
};

// GET /api/v2/session: who is signed in, and the session's CSRF token.
class current_session_handler final : public handler {
public:
  access required_access() const override { return access::member_session; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto member = storage::find_member_by_id(ctx.db(), *ex->principal->member_id);
    if (!member)
      return ex->fail({domain::errc::unauthorized, "Your session has ended; sign in again"});
    json_out out;
    out.w().StartObject();
    out.field("success", true);
    out.key("data");
    render_session(out, *member, ex->signed_in->csrf_token, ex->signed_in->expires_at);
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

// DELETE /api/v2/session: this session ends on every node.
class sign_out_handler final : public handler {
public:
  access required_access() const override { return access::member_session; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    storage::end_session(ctx.db(), ex->signed_in->token_hash);
    outbound_response r{200, R"({"success":true,"message":"Signed out"})"};
    r.headers.emplace_back("Set-Cookie", ended_session_cookie_header());
    ex->respond(std::move(r));
  }
};

// POST /api/v2/session/password {current_password, new_password}: every
// session of the member ends, this one too.
class change_password_handler final : public handler {
public:
  access required_access() const override { return access::member_session; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    domain::field_errors errors;
    object_reader in{body, errors};
    auto current = in.string("current_password", true, domain::password_max_length);
    auto wanted = read_password(in, "new_password", errors);
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    const auto member_id = *ex->principal->member_id;
    auto subject = storage::find_sign_in(ctx.db(), member_id, ex->request.address);
    if (auto wait = std::max(subject.account_wait, subject.address_wait); wait > 0)
      return ex->fail(throttled(wait, ex));
    on_cpu_pool(
        ex, ctx,
        [hash = subject.password_hash, current = std::move(*current), wanted = std::move(*wanted)] {
          return domain::verify_password(hash, current)
                     ? std::optional{domain::hash_password(wanted)}
                     : std::nullopt;
        },
        [ex, member_id](worker_context& ctx, std::optional<std::string>& new_hash) {
          if (!new_hash) {
            storage::record_failed_sign_in(ctx.db(), member_id, ex->request.address);
            return ex->fail({domain::errc::forbidden, "The current password is wrong"});
          }
          storage::set_member_password(ctx.db(), member_id, *new_hash);
          outbound_response r{200,
                              R"({"success":true,"message":"Password changed; sign in again"})"};
          r.headers.emplace_back("Set-Cookie", ended_session_cookie_header());
          ex->respond(std::move(r));
        });
  }
};

} // namespace

std::shared_ptr<handler> sign_in() {
  return std::make_shared<sign_in_handler>();
}

std::shared_ptr<handler> use_setup_link() {
  return std::make_shared<use_setup_link_handler>();
}

std::shared_ptr<handler> current_session() {
  return std::make_shared<current_session_handler>();
}

std::shared_ptr<handler> sign_out() {
  return std::make_shared<sign_out_handler>();
}

std::shared_ptr<handler> change_password() {
  return std::make_shared<change_password_handler>();
}

} // namespace vcs::http::handlers
