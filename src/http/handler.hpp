#pragma once

#include "actors/actor_error.hpp"
#include "actors/actors.hpp"
#include "domain/tenant.hpp"
#include "http/metrics.hpp"
#include "http/query.hpp"
#include "http/router.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

namespace soci {
class session;
}

namespace vcs::http {

// What every request worker shares, fixed after start-up.
struct services {
  actors::registry_actor registry;
  std::shared_ptr<http::metrics> metrics;
  std::string operator_token;
  std::chrono::milliseconds actor_timeout{30'000};
};

// One request in flight: what was asked, who asks, and the way back. Held by
// shared_ptr so handlers that wait on an actor keep it alive.
class exchange {
public:
  exchange(actors::http_call call, const services& svc)
      : request(std::move(call.request)), svc(svc), reply_(std::move(call.reply)) {}

  actors::inbound_request request;
  http::target target;
  path_params params;
  std::string route = "unmatched";
  std::optional<domain::principal> principal;
  const services& svc;

  void respond(unsigned status, std::string body);
  void respond(actors::outbound_response response);
  void fail(const domain::error& e);
  bool answered() const noexcept { return answered_; }

private:
  std::function<void(actors::outbound_response)> reply_;
  bool answered_ = false;
};

using exchange_ptr = std::shared_ptr<exchange>;

// The worker a handler runs on: its own database session (blocking reads are
// fine on this detached actor) and the actor pointer for asking entity
// actors.
struct worker_context {
  actors::request_worker_actor::pointer self;
  // Opens or repairs the worker's session; throws when the database is down.
  std::function<soci::session&()> db;
  const services& svc;
};

// Who may call a route.
enum class access { none, api_key, operator_token };

// One route's behaviour: a small class per route (userver style).
class handler {
public:
  virtual ~handler() = default;
  virtual access required_access() const { return access::api_key; }
  virtual void handle(const exchange_ptr& ex, worker_context& ctx) = 0;
};

// Asks the tenant's actor and answers through `ok`, or fails the exchange
// with the mapped error. A tenant actor that retired between look-up and
// request is looked up once more.
template <class Reply, class... Ts>
void ask_tenant(actors::request_worker_actor::pointer self, const exchange_ptr& ex,
                int64_t tenant_id, std::function<void(Reply&)> ok, std::tuple<Ts...> msg,
                int tries_left = 1) {
  auto timeout = ex->svc.actor_timeout;
  self->request(ex->svc.registry, timeout, caf::get_atom::value, actors::tenant_atom::value,
                tenant_id)
      .then(
          [=](actors::tenant_actor& t) {
            auto req = std::apply(
                [&](const auto&... xs) { return self->request(t, timeout, xs...); }, msg);
            std::move(req).then([=](Reply& r) { ok(r); },
                                [=](caf::error& e) {
                                  if (e == caf::sec::request_receiver_down && tries_left > 0)
                                    ask_tenant<Reply>(self, ex, tenant_id, ok, msg, tries_left - 1);
                                  else
                                    ex->fail(actors::to_domain_error(e));
                                });
          },
          [=](caf::error& e) { ex->fail(actors::to_domain_error(e)); });
}

} // namespace vcs::http
