#include "http/work/request_worker.hpp"

#include "domain/api_key.hpp"
#include "domain/campaign_errors.hpp"
#include "domain/client_access.hpp"
#include "domain/global_id.hpp"
#include "domain/idempotency.hpp"
#include "domain/sealed_bindings.hpp"
#include "http/inputs/json.hpp"
#include "http/render/error_mapping.hpp"
#include "http/server/bearer_token.hpp"
#include "http/server/member_cookie.hpp"
#include "http/server/token_book.hpp"
#include "http/work/rate_limiter.hpp"
#include "storage/api_key_repository.hpp"
#include "storage/client_user_repository.hpp"
#include "storage/database.hpp"
#include "storage/idempotency_repository.hpp"
#include "storage/member_repository.hpp"
#include "storage/storage_error.hpp"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

namespace vcs::http {

namespace {

// How often waiting requests are checked against their deadline: one timer
// per worker while any wait, not one per request; a deadline is kept to
// within this.
constexpr std::chrono::milliseconds deadline_check_interval{100};

domain::error unauthorized(std::string message) {
  return {domain::errc::unauthorized, std::move(message)};
}

} // namespace

request_worker_state::~request_worker_state() = default;

soci::session& request_worker_state::db() {
  return sql->get();
}

bool request_worker_state::authenticate(const exchange_ptr& ex, const handler& route) {
  const auto required = route.required_access();
  if (required == access::none)
    return true;
  const auto& header = ex->request.authorization;
  const auto& req = ex->request;
  const bool portal = req.session == session_kind::portal;
  if (required == access::member_session && (req.session_token.empty() || portal)) {
    ex->fail(unauthorized("Sign in first: this route is for a signed-in member"));
    return false;
  }
  if (required == access::client_session && (req.session_token.empty() || !portal)) {
    ex->fail(unauthorized("Sign in to the portal first"));
    return false;
  }
  if (required == access::member_session || required == access::client_session ||
      (header.empty() && required == access::api_key && !req.session_token.empty()))
    return authenticate_session(ex, route);
  if (header.empty()) {
    ex->fail(unauthorized("Authorization header not found"));
    return false;
  }
  auto token = bearer_token(header);
  if (required == access::operator_token) {
    if (token.empty() || !domain::constant_time_equal(token, svc->operator_token)) {
      ex->fail(unauthorized("Invalid operator token"));
      return false;
    }
    return true;
  }
  if (token.empty()) {
    ex->fail(unauthorized("Invalid API key"));
    return false;
  }
  const auto key_hash = domain::hash_api_key(token);
  auto found = find_principal(ex, route, key_hash);
  if (svc->tokens) {
    const auto now = std::chrono::steady_clock::now();
    if (found)
      svc->tokens->learn_known(key_hash, found->tenant_id, now);
    else
      svc->tokens->learn_unknown(key_hash, now);
  }
  if (!found) {
    ex->fail(unauthorized("Invalid API key"));
    return false;
  }
  if (found->key_status != domain::api_key_status::active) {
    ex->fail(unauthorized("API key is disabled"));
    return false;
  }
  if (found->key_expired) {
    ex->fail(unauthorized("API key has expired"));
    return false;
  }
  ex->principal = *found;
  ex->key_hash = key_hash;
  if (!found->tenant_active) {
    ex->fail({domain::errc::forbidden, "Tenant is inactive"});
    return false;
  }
  return true;
}

bool request_worker_state::authenticate_session(const exchange_ptr& ex, const handler& route) {
  const auto& req = ex->request;
  auto param = route.versioned_campaign();
  auto campaign =
      param.empty() ? std::nullopt : domain::parse_id(domain::entity::campaign, ex->param(param));
  auto token_hash = domain::hash_api_key(req.session_token);
  auto found = req.session == session_kind::portal
                   ? storage::find_client_session(db(), token_hash, campaign)
                   : storage::find_session(db(), token_hash, campaign);
  if (!found) {
    ex->response_headers.emplace_back("Set-Cookie", ended_session_cookie_header(req.session));
    ex->fail(unauthorized("Your session has ended; sign in again"));
    return false;
  }
  // A page of another site cannot send this service's Origin, nor read the
  // session's CSRF token.
  if (changes_state(req.method)) {
    if (!same_origin(req.origin, req.host)) {
      ex->fail({domain::errc::forbidden, "This request's Origin is not this service's"});
      return false;
    }
    if (!domain::constant_time_equal(req.csrf_token, found->csrf_token)) {
      ex->fail({domain::errc::forbidden, "Missing or wrong X-CSRF-Token"});
      return false;
    }
  }
  ex->principal = std::move(found->principal);
  ex->signed_in =
      member_session{std::move(token_hash), std::move(found->csrf_token), found->expires_at};
  if (campaign && found->leads_version)
    ex->campaign = campaign_at_version{*campaign, *found->leads_version};
  if (!ex->principal->tenant_active) {
    ex->fail({domain::errc::forbidden, "Tenant is inactive"});
    return false;
  }
  return true;
}

bool request_worker_state::authorize(const exchange_ptr& ex, const router::route& route) {
  if (!ex->principal)
    return true;
  if (ex->principal->client)
    return authorize_client(ex, route);
  const auto& scope = ex->principal->scope;
  if (route.permission && !scope.permissions.has(*route.permission)) {
    ex->fail(ex->principal->member_id
                 ? domain::role_lacks_permission(ex->principal->role, *route.permission)
                 : domain::missing_permission(*route.permission));
    return false;
  }
  // A campaign the path names that the key does not reach; an id that does
  // not parse is the handler's 404.
  if (scope.campaigns && route.pattern.find("{campaign_id}") != std::string::npos)
    if (auto id = domain::parse_id(domain::entity::campaign, ex->param("campaign_id"));
        id && !scope.reaches_campaign(*id)) {
      ex->fail(domain::campaign_out_of_scope());
      return false;
    }
  return true;
}

bool request_worker_state::authorize_client(const exchange_ptr& ex, const router::route& route) {
  const auto& client = *ex->principal->client;
  if (domain::portal_blocked(client.subscription_status) &&
      !route.target->open_while_payment_due()) {
    ex->fail(domain::portal_payment_required(client.subscription_status));
    return false;
  }
  // The portal's own routes read only the client's own records.
  if (route.target->required_access() == access::client_session)
    return true;
  if (!route.client_level) {
    ex->fail(domain::closed_to_client_users());
    return false;
  }
  // A campaign not assigned to the client does not exist for it.
  if (route.pattern.find("{campaign_id}") != std::string::npos)
    if (auto id = domain::parse_id(domain::entity::campaign, ex->param("campaign_id"));
        !id || !ex->principal->scope.reaches_campaign(*id)) {
      ex->fail(domain::campaign_not_found());
      return false;
    }
  if (client.campaigns < *route.client_level) {
    ex->fail(domain::client_level_too_low(client.campaigns, *route.client_level));
    return false;
  }
  return true;
}

std::optional<domain::principal> request_worker_state::find_principal(const exchange_ptr& ex,
                                                                      const handler& route,
                                                                      const std::string& key_hash) {
  auto param = route.versioned_campaign();
  auto campaign =
      param.empty() ? std::nullopt : domain::parse_id(domain::entity::campaign, ex->param(param));
  if (!campaign)
    return storage::find_principal(db(), key_hash);
  auto found = storage::find_principal(db(), key_hash, *campaign);
  if (!found)
    return std::nullopt;
  if (found->leads_version)
    ex->campaign = campaign_at_version{*campaign, *found->leads_version};
  return found->principal;
}

bool request_worker_state::claim_idempotency_key(const exchange_ptr& ex) {
  const auto& key = *ex->request.idempotency_key;
  if (auto invalid = domain::check_idempotency_key(key)) {
    ex->fail(*invalid);
    return false;
  }
  auto tenant = ex->principal->tenant_id;
  auto fingerprint = domain::request_fingerprint(
      domain::caller_of(*ex->principal), ex->request.method, ex->request.target, ex->request.body);
  auto claim = storage::claim_idempotency_key(
      db(), tenant, key, fingerprint,
      std::chrono::duration_cast<std::chrono::seconds>(svc->deadlines.abandon));
  using outcome = storage::idempotency_claim::outcome;
  switch (claim.result) {
  case outcome::mismatch:
    ex->fail(
        {domain::errc::unprocessable, "Idempotency-Key was already used with a different request"});
    return false;
  case outcome::in_progress:
    ex->fail({domain::errc::conflict, "A request with this Idempotency-Key is still in progress"});
    return false;
  case outcome::replay: {
    outbound_response r;
    r.status = claim.response.status;
    r.content_type = std::move(claim.response.content_type);
    if (!claim.response.sealed_body) {
      r.body = std::move(claim.response.plain_body);
    } else if (auto body = svc->secrets->open(*claim.response.sealed_body,
                                              domain::idempotency_binding(tenant, key))) {
      r.body = std::move(*body);
    } else {
      // Sealed with another service key (VCS_SECRET_KEY changed).
      spdlog::error("request_id={}: a kept Idempotency-Key response cannot be opened",
                    ex->request.request_id);
      ex->fail(domain::internal_error());
      return false;
    }
    r.headers.emplace_back("Idempotent-Replayed", "true");
    ex->respond(std::move(r));
    return false;
  }
  case outcome::claimed:
    break;
  }
  // Successful responses are kept for replay; an error releases the key, so
  // a retry runs again. While the outcome is unknown (past the deadline)
  // nothing runs and the claim stays. When storing fails the claim stays
  // until it is abandoned (request_deadlines::abandon).
  ex->before_reply = [this, tenant, key, token = std::move(claim.token),
                      request_id = ex->request.request_id](const outbound_response& r) {
    try {
      if (r.status >= 200 && r.status < 300)
        storage::complete_idempotency_key(
            db(), tenant, key, token,
            {r.status, r.content_type,
             svc->secrets->seal(r.body, domain::idempotency_binding(tenant, key))});
      else
        storage::release_idempotency_key(db(), tenant, key, token);
    } catch (const std::exception& e) {
      spdlog::warn("request_id={}: the Idempotency-Key outcome was not stored: {}", request_id,
                   e.what());
    }
  };
  return true;
}

bool request_worker_state::within_rate(const exchange_ptr& ex) {
  if (!svc->rates || !ex->principal)
    return true;
  const auto limit = svc->rate_override.value_or(domain::default_request_rate(ex->principal->plan));
  auto d = svc->rates->take(ex->principal->tenant_id, limit, std::chrono::steady_clock::now());
  // IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): the quota
  // per second and what is left of it (the burst allowance included).
  ex->response_headers.emplace_back("RateLimit-Policy",
                                    "\"tenant\";q=" + std::to_string(limit.per_second) + ";w=1");
  ex->response_headers.emplace_back(
      "RateLimit", "\"tenant\";r=" + std::to_string(d.remaining) +
                       ";t=" + std::to_string(std::max<int64_t>(1, d.retry_after)));
  if (d.allowed)
    return true;
  ex->response_headers.emplace_back("Retry-After", std::to_string(d.retry_after));
  ex->fail({domain::errc::too_many_requests, "Rate limit exceeded: at most " +
                                                 std::to_string(limit.per_second) +
                                                 " requests a second; try again shortly"});
  return false;
}

void request_worker_state::serve(request_worker_actor::pointer self, http_call& call) {
  const auto client = call.request.share;
  handle(self, call);
  if (auto next = queue->finished(index, client))
    self->send(self, std::move(*next));
}

void request_worker_state::watch(request_worker_actor::pointer self, const exchange_ptr& ex) {
  waiting.push_back(ex);
  if (!checking_deadlines) {
    checking_deadlines = true;
    self->delayed_send(self, deadline_check_interval, actors::deadline_atom::value);
  }
}

void request_worker_state::check_deadlines(request_worker_actor::pointer self) {
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(waiting, [now](const std::weak_ptr<exchange>& watched) {
    auto ex = watched.lock();
    if (!ex || ex->answered())
      return true;
    if (now < ex->due)
      return false;
    ex->fail(domain::outcome_unknown());
    return true;
  });
  checking_deadlines = !waiting.empty();
  if (checking_deadlines)
    self->delayed_send(self, deadline_check_interval, actors::deadline_atom::value);
}

void request_worker_state::handle(request_worker_actor::pointer self, http_call& call) {
  auto routed = std::move(call.routed);
  auto ex = std::make_shared<exchange>(std::move(call), *svc);
  const auto waited = std::chrono::steady_clock::now() - ex->request.received;
  svc->metrics->queue_wait(ex->request.listener, waited);
  if (svc->max_queue_wait.count() > 0 && waited > svc->max_queue_wait) {
    svc->metrics->refused(503, "queue_wait");
    ex->respond(overloaded_response());
    return;
  }
  if (!routed.decoded_target) {
    ex->fail({domain::errc::bad_request, "Invalid request target"});
    return;
  }
  ex->target = std::move(*routed.decoded_target);
  auto& match = routed.match;
  if (match.result == router::outcome::not_found) {
    ex->fail(domain::not_found("Not found"));
    return;
  }
  if (match.result == router::outcome::wrong_method) {
    auto r = error_response({domain::errc::method_not_allowed, match.wrong_method_message});
    r.headers.emplace_back("Allow", match.allow);
    ex->respond(std::move(r));
    return;
  }
  ex->route = match.found->method + " " + match.found->pattern;
  ex->due = ex->request.received + match.found->target->deadline(svc->deadlines);
  ex->envelope = match.found->target->envelope();
  ex->params = std::move(match.params);
  try {
    if (!authenticate(ex, *match.found->target) || !authorize(ex, *match.found))
      return;
    if (ex->request.authenticate_only)
      return ex->respond(100, {});
    if (!within_rate(ex))
      return;
    if (ex->request.idempotency_key && ex->principal &&
        domain::accepts_idempotency_key(ex->request.method) && !claim_idempotency_key(ex))
      return;
    worker_context ctx{self, [this]() -> soci::session& { return db(); }, *svc};
    match.found->target->handle(ex, ctx);
  } catch (const std::exception& e) {
    auto err = storage::translate(e, sql->broken());
    if (err.code == domain::errc::internal)
      spdlog::error("request_id={} route=\"{}\": {}", ex->request.request_id, ex->route, e.what());
    ex->fail(err);
  }
  if (!ex->answered())
    watch(self, ex);
}

request_worker_actor::behavior_type
request_worker(request_worker_actor::stateful_pointer<request_worker_state> self,
               std::shared_ptr<const services> svc, std::string database_url,
               std::shared_ptr<fair_queue> queue, std::size_t index) {
  auto& st = self->state;
  st.svc = std::move(svc);
  st.sql = std::make_unique<storage::lazy_session>(std::move(database_url));
  st.queue = std::move(queue);
  st.index = index;
  return {
      [self](http_call& call) { self->state.serve(self, call); },
      [self](actors::deadline_atom) { self->state.check_deadlines(self); },
      [](actors::resume_atom, worker_task& task) { task.run(); },
  };
}

} // namespace vcs::http
