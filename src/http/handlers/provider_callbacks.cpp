// Call-status callbacks from live voice providers (no API key: each
// configuration's callbacks carry a secret derived for it).

#include "domain/global_id.hpp"
#include "domain/webhook_signature.hpp"
#include "http/handlers/handlers.hpp"
#include "http/json.hpp"
#include "http/provider_a_gateway.hpp"
#include "storage/dialer_repository.hpp"

#include <caf/send.hpp>

#include <algorithm>

namespace vcs::http::handlers {

namespace {

void received(const exchange_ptr& ex, bool applied) {
  json_out out;
  out.w().StartObject();
  out.field("received", true);
  out.field("applied", applied);
  out.w().EndObject();
  ex->respond(200, out.take());
}

// POST /webhooks/provider-a/{voice_provider_id}: provider_a's server
// messages. A message about no known call, or of a kind that changes no
// call, is acknowledged and ignored (the provider would only retry it). A
// call report is acknowledged only once its effect committed; otherwise the
// answer is 503 and the provider sends it again.
class provider_a_callback_handler final : public handler {
public:
  access required_access() const override { return access::none; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto id = domain::parse_positive_int(ex->param("voice_provider_id"));
    const auto& sent = ex->request.provider_secret;
    const auto& keys = ex->svc.callback_keys;
    if (!id || !sent || std::none_of(keys.begin(), keys.end(), [&](const std::string& key) {
          return domain::equal_constant_time(*sent, provider_a_callback_secret(key, *id));
        }))
      return ex->fail(domain::error{domain::errc::unauthorized, "Invalid provider secret"});
    auto report = read_provider_a_message(ex->request.body);
    if (!report)
      return received(ex, false);
    auto route = storage::route_call(ctx.db(), *id, report->call_id, report->provider_call_id);
    if (!route)
      return received(ex, false);
    auto update = report->update;
    update.call_id = route->call_id;
    ctx.self
        ->request(ex->svc.registry, ex->svc.deadlines.settle, caf::get_atom::value,
                  actors::campaign_atom::value, route->tenant_id, route->campaign_id)
        .then(
            [ex, self = ctx.self, update](actors::campaign_actor& c) {
              self->request(c, ex->svc.deadlines.settle, actors::call_atom::value, update)
                  .then([ex](bool) { received(ex, true); },
                        [ex](caf::error& e) { ex->fail(actors::to_domain_error(e)); });
            },
            [ex](caf::error& e) { ex->fail(actors::to_domain_error(e)); });
  }
};

} // namespace

std::shared_ptr<handler> provider_a_callback() {
  return std::make_shared<provider_a_callback_handler>();
}

} // namespace vcs::http::handlers
