#include "http/handlers/account_sessions.hpp"

#include "domain/api_key.hpp"
#include "domain/member.hpp"
#include "domain/password.hpp"
#include "domain/sign_in_throttle.hpp"
#include "http/handlers/body.hpp"
#include "http/work/on_cpu_pool.hpp"

#include <soci/soci.h>

namespace vcs::http::handlers {

namespace {

// A browser signs in only from this service's own pages (login CSRF): 403
// from any other, else nothing.
std::optional<domain::error> check_same_origin(const exchange_ptr& ex) {
  if (!same_origin(ex->request.origin, ex->request.host))
    return domain::error{domain::errc::forbidden, "This request's Origin is not this service's"};
  return std::nullopt;
}

std::optional<std::string> read_password(object_reader& in, const char* name,
                                         domain::field_errors& errors) {
  auto p = in.string(name, true, domain::password_max_length);
  if (p)
    if (auto weak = domain::check_new_password(*p))
      errors.add(name, std::move(*weak));
  return p;
}

// The first of `accounts` that `password` opens. A name without accounts
// is verified against no hash all the same, so it costs what a known one
// does.
std::optional<storage::sign_in_account>
account_opened_by(const std::vector<storage::sign_in_account>& accounts,
                  const std::string& password) {
  if (accounts.empty()) {
    domain::verify_password(std::nullopt, password);
    return std::nullopt;
  }
  for (const auto& a : accounts)
    if (domain::verify_password(a.password_hash, password))
      return a;
  return std::nullopt;
}

domain::error throttled(int64_t wait, const exchange_ptr& ex) {
  ex->response_headers.emplace_back("Retry-After", std::to_string(wait));
  return {domain::errc::too_many_requests,
          "Too many failed sign-ins; try again in " + std::to_string(wait) + " seconds"};
}

// The session's data: who (the kind's fields), its CSRF token, when it
// ends; false when the account is gone.
bool render_session(json_out& out, const account_kind& kind, soci::session& sql, int64_t account,
                    std::string_view csrf_token, domain::timestamp expires_at) {
  out.w().StartObject();
  if (!kind.describe(out, sql, account))
    return false;
  out.field("csrf_token", csrf_token);
  out.field("expires_at", domain::format_utc(expires_at));
  out.field(
      "idle_timeout_seconds",
      static_cast<int64_t>(
          std::chrono::duration_cast<std::chrono::seconds>(domain::session_idle_timeout).count()));
  out.w().EndObject();
  return true;
}

// 200 with the session's cookie ended in the browser too.
void answer_signed_out(const exchange_ptr& ex, const account_kind& kind, std::string_view body) {
  outbound_response r{200, std::string{body}};
  r.headers.emplace_back("Set-Cookie", ended_session_cookie_header(kind.cookie()));
  ex->respond(std::move(r));
}

// Signs the account in within `tx`: its failures forgotten, a new session,
// and once that has committed the 201 with the session's cookie.
void sign_in(const exchange_ptr& ex, const account_kind& kind, soci::session& sql,
             soci::transaction& tx, int64_t account, std::string_view message) {
  storage::record_sign_in(sql, kind.statements(), account);
  const auto token = domain::random_hex_32();
  const auto csrf = domain::random_hex_32();
  const auto expires_at = storage::open_account_session(sql, kind.statements(), account,
                                                        domain::hash_api_key(token), csrf);
  json_out out;
  out.w().StartObject();
  out.field("success", true);
  out.field("message", message);
  out.key("data");
  render_session(out, kind, sql, account, csrf, expires_at);
  out.w().EndObject();
  outbound_response r{201, out.take()};
  r.headers.emplace_back(
      "Set-Cookie",
      session_cookie_header(
          kind.cookie(), token,
          std::chrono::duration_cast<std::chrono::seconds>(domain::session_lifetime).count()));
  tx.commit();
  ex->respond(std::move(r));
}

// A route of one account kind; by default for its signed-in accounts.
class account_handler : public handler {
public:
  explicit account_handler(std::shared_ptr<const account_kind> kind) : kind_(std::move(kind)) {}
  access required_access() const override { return kind_->signed_in_access(); }
  // A client user reads and ends its session, and changes its password,
  // while a payment is due.
  bool open_while_payment_due() const override { return true; }

protected:
  std::shared_ptr<const account_kind> kind_;
};

// Verifies `password` against the subject on the CPU pool; a wrong one
// counts as a failure, a right one signs in.
class sign_in_handler final : public account_handler {
public:
  using account_handler::account_handler;
  access required_access() const override { return access::none; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (auto refused = check_same_origin(ex))
      return ex->fail(*refused);
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    auto password = in.string("password", true, domain::password_max_length);
    auto subject = kind_->find(ctx.db(), in, errors);
    if (!errors.empty() || !subject)
      return ex->fail(validation_error(std::move(errors)));
    // Counted as a failure before the hash, so concurrent guesses wait
    // their turn instead of all being verified.
    if (auto wait = storage::reserve_sign_in(ctx.db(), subject->throttle_key, ex->request.address))
      return ex->fail(throttled(wait, ex));
    on_cpu_pool(
        ex, ctx,
        [accounts = subject->accounts, password = std::move(*password)] {
          return account_opened_by(accounts, password);
        },
        [ex, kind = kind_, key = subject->throttle_key](
            worker_context& ctx, std::optional<storage::sign_in_account>& account) {
          auto& sql = ctx.db();
          if (!account)
            return ex->fail({domain::errc::unauthorized, "Wrong e-mail or password"});
          storage::release_sign_in(sql, key, ex->request.address);
          if (!account->tenant_active)
            return ex->fail({domain::errc::forbidden, "Tenant is inactive"});
          soci::transaction tx{sql};
          sign_in(ex, *kind, sql, tx, account->id, "Signed in");
        });
  }
};

class setup_link_handler final : public account_handler {
public:
  using account_handler::account_handler;
  access required_access() const override { return access::none; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    if (auto refused = check_same_origin(ex))
      return ex->fail(*refused);
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    auto token = in.string("token", true, 64);
    auto password = read_password(in, "password", errors);
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    on_cpu_pool(
        ex, ctx, [password = std::move(*password)] { return domain::hash_password(password); },
        [ex, kind = kind_, token = std::move(*token)](worker_context& ctx, std::string& hash) {
          auto& sql = ctx.db();
          soci::transaction tx{sql};
          auto account =
              storage::use_setup_link(sql, kind->statements(), domain::hash_api_key(token));
          if (!account)
            return ex->fail(
                {domain::errc::not_found, "This set-up link is unknown, used or expired"});
          storage::set_password(sql, kind->statements(), *account, hash);
          sign_in(ex, *kind, sql, tx, *account, "Password set; signed in");
        });
  }
};

class current_session_handler final : public account_handler {
public:
  using account_handler::account_handler;

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    json_out out;
    out.w().StartObject();
    out.field("success", true);
    out.key("data");
    if (!render_session(out, *kind_, ctx.db(), kind_->account_of(*ex->principal),
                        ex->signed_in->csrf_token, ex->signed_in->expires_at))
      return ex->fail({domain::errc::unauthorized, "Your session has ended; sign in again"});
    out.w().EndObject();
    ex->respond(200, out.take());
  }
};

class sign_out_handler final : public account_handler {
public:
  using account_handler::account_handler;

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    storage::end_account_session(ctx.db(), kind_->statements(), ex->signed_in->token_hash);
    answer_signed_out(ex, *kind_, R"({"success":true,"message":"Signed out"})");
  }
};

class change_password_handler final : public account_handler {
public:
  using account_handler::account_handler;

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = object_body(ex);
    if (!body)
      return ex->fail(body.err());
    domain::field_errors errors;
    object_reader in{*body, errors};
    auto current = in.string("current_password", true, domain::password_max_length);
    auto wanted = read_password(in, "new_password", errors);
    if (!errors.empty())
      return ex->fail(validation_error(std::move(errors)));
    const auto account = kind_->account_of(*ex->principal);
    auto subject = storage::find_sign_in(ctx.db(), kind_->statements(), account);
    auto key = domain::sign_in_subject(kind_->name(), account);
    if (auto wait = storage::reserve_sign_in(ctx.db(), key, ex->request.address))
      return ex->fail(throttled(wait, ex));
    on_cpu_pool(
        ex, ctx,
        [accounts = std::move(subject.accounts), current = std::move(*current),
         wanted = std::move(*wanted)] {
          return account_opened_by(accounts, current) ? std::optional{domain::hash_password(wanted)}
                                                      : std::nullopt;
        },
        [ex, kind = kind_, account, key](worker_context& ctx,
                                         std::optional<std::string>& new_hash) {
          auto& sql = ctx.db();
          if (!new_hash)
            return ex->fail({domain::errc::forbidden, "The current password is wrong"});
          storage::release_sign_in(sql, key, ex->request.address);
          storage::set_password(sql, kind->statements(), account, *new_hash);
          answer_signed_out(ex, *kind,
                            R"({"success":true,"message":"Password changed; sign in again"})");
        });
  }
};

} // namespace

std::shared_ptr<handler> sign_in_route(std::shared_ptr<const account_kind> kind) {
  return std::make_shared<sign_in_handler>(std::move(kind));
}

std::shared_ptr<handler> setup_link_route(std::shared_ptr<const account_kind> kind) {
  return std::make_shared<setup_link_handler>(std::move(kind));
}

std::shared_ptr<handler> current_session_route(std::shared_ptr<const account_kind> kind) {
  return std::make_shared<current_session_handler>(std::move(kind));
}

std::shared_ptr<handler> sign_out_route(std::shared_ptr<const account_kind> kind) {
  return std::make_shared<sign_out_handler>(std::move(kind));
}

std::shared_ptr<handler> change_password_route(std::shared_ptr<const account_kind> kind) {
  return std::make_shared<change_password_handler>(std::move(kind));
}

} // namespace vcs::http::handlers
