#pragma once

#include "actors/actor_error.hpp"
#include "actors/actors.hpp"
#include "actors/db_pool.hpp"
#include "domain/plan.hpp"
#include "domain/request_deadlines.hpp"
#include "domain/secret_box.hpp"
#include "domain/tenant.hpp"
#include "http/inputs/query.hpp"
#include "http/metrics/metrics.hpp"
#include "http/render/error_envelope.hpp"
#include "http/server/server_options.hpp"
#include "http/work/request_worker_actor.hpp"
#include "http/work/router.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace soci {
class session;
}

namespace vcs::outbound {
class outbound_client;
}

namespace vcs::http {

class cpu_pool;
class lead_page_cache;
class rate_limiter;
class readiness;
class token_book;
class event_hub;

// What every request worker shares, fixed after start-up.
struct services {
  actors::registry_actor registry;
  actors::billing_scheduler_actor billing;
  actors::dial_scheduler_actor dialer;
  // The database's state as the health probe last saw it.
  std::shared_ptr<const std::atomic<bool>> database_up;
  // The node's database workers (/metrics reads their load).
  std::shared_ptr<const actors::db_pool> db_pool;
  std::shared_ptr<http::metrics> metrics;
  std::string operator_token;
  // When a request is answered, and how long its work is awaited after.
  domain::request_deadlines deadlines = domain::deadlines_for(std::chrono::seconds{30});
  // The longest a request may wait for a worker before it is answered 503
  // instead of run (its client has likely given up); 0 turns it off.
  std::chrono::milliseconds max_queue_wait{5'000};
  // What live providers' callback secrets are derived from: the first
  // signs, each is accepted (domain::service_keys).
  std::vector<std::string> callback_keys;
  // Seals stored provider credentials (key from VCS_SECRET_KEY).
  std::shared_ptr<const domain::secret_box> secrets;
  // Checks the URLs tenants give for outbound requests (webhook_url).
  const outbound::outbound_client* outbound = nullptr;
  // Per-tenant request rates on this node; null turns them off. A set
  // override applies to every tenant instead of its plan's default.
  std::shared_ptr<rate_limiter> rates;
  std::optional<domain::request_rate> rate_override;
  // Whether this node should get traffic (GET /readyz).
  std::shared_ptr<readiness> ready;
  // Runs the CPU-heavy steps of requests, across tenants.
  std::shared_ptr<cpu_pool> cpu;
  // Lead pages rendered on this node, each served while its campaign's
  // leads version holds.
  std::shared_ptr<lead_page_cache> lead_pages;
  // The keys this node has read: whose share a request takes, and the
  // tokens refused early (shared with the listeners).
  std::shared_ptr<token_book> tokens;
  // This service as people reach it (set-up links): scheme, host and port.
  std::string public_url;
  // Where voice providers reach this service's callbacks (callback-base-url).
  std::string callback_base_url;
  // The node's server-sent-event streams (GET /api/v2/events/stream).
  std::shared_ptr<event_hub> events;
  // Whether operator routes take a `now` other than the clock
  // (allow-test-clock, a setting for tests).
  bool allow_test_clock = false;
};

// The session a signed-in member's request came with (instead of a key).
struct member_session {
  std::string token_hash;
  std::string csrf_token;
  domain::timestamp expires_at{};
};

// A campaign of the caller's tenant and its leads version, read with the
// caller's key (handler::versioned_campaign).
struct campaign_at_version {
  int64_t id = 0;
  int64_t leads_version = 0;
};

// One request in flight: what was asked, who asks, and the way back. Held by
// shared_ptr so handlers that wait on an actor keep it alive.
class exchange {
public:
  exchange(http_call call, const services& svc)
      : request(std::move(call.request)), svc(svc), reply_(std::move(call.reply)) {}

  inbound_request request;
  http::target target;
  path_params params;
  std::string route = "unmatched";
  // The route's deadline: the client is answered 503 by then if the work
  // has not ended, and CPU-pool steps not yet started are skipped.
  std::chrono::steady_clock::time_point due = std::chrono::steady_clock::time_point::max();
  std::optional<domain::principal> principal;
  std::optional<member_session> signed_in;
  // The request's API key hashed, when it came with one.
  std::string key_hash;
  // The route's campaign, when it names one in handler::versioned_campaign
  // and the tenant has it.
  std::optional<campaign_at_version> campaign;
  const services& svc;

  // Runs once on the request's outcome (stores it for the request's
  // Idempotency-Key): before the response leaves, or when the outcome of
  // work past its deadline arrives after the client's 503.
  std::function<void(const outbound_response&)> before_reply;
  // Added to whatever response leaves (the tenant's rate limit state).
  std::vector<std::pair<std::string, std::string>> response_headers;
  // The route's error envelope (handler::envelope), once routed.
  error_envelope envelope;

  // The value of the route pattern's {name} placeholder, e.g.
  // param("campaign_id"); see path_params::get.
  const std::string& param(std::string_view name) const { return params.get(name); }

  void respond(unsigned status, std::string body);
  void respond(outbound_response response);
  void fail(const domain::error& e);
  bool answered() const noexcept { return answered_; }

private:
  void deliver(outbound_response response, bool outcome_known);

  std::function<void(outbound_response)> reply_;
  bool answered_ = false;
  bool settled_ = false;
};

using exchange_ptr = std::shared_ptr<exchange>;

// The worker a handler runs on: its own database session (blocking reads are
// fine on this detached actor) and the actor pointer for asking entity
// actors.
struct worker_context {
  request_worker_actor::pointer self;
  // Opens or repairs the worker's session; throws when the database is down.
  std::function<soci::session&()> db;
  const services& svc;
};

// Who may call a route: api_key also takes a signed-in member's session and,
// where the route is open to client users (router::route::client_level), a
// client user's portal session; client_session routes are the portal's own.
enum class access { none, api_key, member_session, client_session, operator_token };

// The largest body a route reads: `body-limit`, or `bulk-body-limit` for the
// bulk lead routes.
enum class body_size { regular, bulk };

// One route's behaviour: a small class per route (userver style).
class handler {
public:
  virtual ~handler() = default;
  virtual access required_access() const { return access::api_key; }
  // When the client is answered 503 if the work has not ended.
  virtual std::chrono::milliseconds deadline(const domain::request_deadlines& d) const {
    return d.answer;
  }
  virtual body_size body() const { return body_size::regular; }
  // The most items a JSON-array body of this content type may hold, counted
  // while the session reads it (domain::too_many_items); 0: not counted
  // there (a body the handler counts as it parses it, or none).
  virtual std::size_t body_items(std::string_view /*content_type*/) const { return 0; }
  // The path parameter naming a campaign whose leads version is read in the
  // same round trip as the key (exchange::campaign); empty: none.
  virtual std::string_view versioned_campaign() const { return {}; }
  // Whether a client user may call it while its client's payment is due
  // (domain::portal_blocked): the portal's session and billing routes.
  virtual bool open_while_payment_due() const { return false; }
  // How the spec's envelope of this route differs for its errors.
  virtual error_envelope envelope() const { return {}; }
  // The request header a voice provider's callback proves itself with
  // (exchange::request.provider_proof); empty: none is read.
  virtual std::string_view proof_header() const { return {}; }
  // The answer given on the I/O thread, without a worker, from the server's
  // own state, or nullopt to run handle() on a worker. The probes answer so:
  // a flood that keeps every worker busy must not make the node look dead.
  virtual std::optional<outbound_response> answer_inline(const server_options&,
                                                         bool /*draining*/) const {
    return std::nullopt;
  }
  virtual void handle(const exchange_ptr& ex, worker_context& ctx) = 0;
};

// A route of the operator listener: the operator token is required.
class operator_handler : public handler {
public:
  access required_access() const override { return access::operator_token; }
};

// Asks an entity actor: looks it up in the registry with `lookup` (the get
// message after get_atom), sends `msg`, and answers through `ok`, or fails
// the exchange with the mapped error. An actor that retired between look-up
// and request is looked up once more. The reply is awaited past the
// client's deadline, so a late outcome still settles the exchange.
template <class Handle, class Reply, class... Key, class... Ts>
void ask_entity(request_worker_actor::pointer self, const exchange_ptr& ex,
                std::tuple<Key...> lookup, std::function<void(Reply&)> ok, std::tuple<Ts...> msg,
                int tries_left = 1) {
  auto timeout = ex->svc.deadlines.settle;
  auto find = std::apply(
      [&](const auto&... key) {
        return self->request(ex->svc.registry, timeout, caf::get_atom::value, key...);
      },
      lookup);
  std::move(find).then(
      [=](Handle& entity) {
        auto req = std::apply(
            [&](const auto&... xs) { return self->request(entity, timeout, xs...); }, msg);
        std::move(req).then([=](Reply& r) { ok(r); },
                            [=](caf::error& e) {
                              if (e == caf::sec::request_receiver_down && tries_left > 0)
                                ask_entity<Handle, Reply>(self, ex, lookup, ok, msg,
                                                          tries_left - 1);
                              else
                                ex->fail(actors::to_domain_error(e));
                            });
      },
      [=](caf::error& e) { ex->fail(actors::to_domain_error(e)); });
}

template <class Reply, class... Ts>
void ask_tenant(request_worker_actor::pointer self, const exchange_ptr& ex, int64_t tenant_id,
                std::function<void(Reply&)> ok, std::tuple<Ts...> msg) {
  ask_entity<actors::tenant_actor, Reply>(self, ex,
                                          std::make_tuple(actors::tenant_atom::value, tenant_id),
                                          std::move(ok), std::move(msg));
}

template <class Reply, class... Ts>
void ask_subscription(request_worker_actor::pointer self, const exchange_ptr& ex, int64_t tenant_id,
                      int64_t subscription_id, std::function<void(Reply&)> ok,
                      std::tuple<Ts...> msg) {
  ask_entity<actors::subscription_actor, Reply>(
      self, ex, std::make_tuple(actors::subscr_atom::value, tenant_id, subscription_id),
      std::move(ok), std::move(msg));
}

template <class Reply, class... Ts>
void ask_campaign(request_worker_actor::pointer self, const exchange_ptr& ex, int64_t tenant_id,
                  int64_t campaign_id, std::function<void(Reply&)> ok, std::tuple<Ts...> msg) {
  ask_entity<actors::campaign_actor, Reply>(
      self, ex, std::make_tuple(actors::campaign_atom::value, tenant_id, campaign_id),
      std::move(ok), std::move(msg));
}

} // namespace vcs::http
