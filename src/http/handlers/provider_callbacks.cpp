// Call-status callbacks from live voice providers, one handler for every
// vendor's descriptor (outbound/provider_callback.hpp). No API key: each
// configuration's callbacks prove themselves with a secret derived for it
// or a signature made with one of its credentials.

#include "domain/global_id.hpp"
#include "domain/provider_signature.hpp"
#include "domain/webhook_signature.hpp"
#include "http/handlers/handlers.hpp"
#include "http/inputs/json.hpp"
#include "outbound/callback_secret.hpp"
#include "outbound/provider_a_gateway.hpp"
#include "outbound/provider_b_gateway.hpp"
#include "outbound/provider_c_gateway.hpp"
#include "outbound/provider_credentials.hpp"
#include "outbound/provider_d_gateway.hpp"
#include "storage/dialer_repository.hpp"
#include "storage/storage_error.hpp"

#include <caf/send.hpp>

#include <algorithm>
#include <chrono>

namespace vcs::http::handlers {

namespace {

// Which configuration a callback is for, and the digest of its signature
// when a repeat of it must be refused (empty for provider_a).
struct callback_of {
  int64_t voice_provider_id = 0;
  std::string digest;
};

// Acknowledges the callback, first recording its digest as seen.
void received(const exchange_ptr& ex, worker_context& ctx, const callback_of& from, bool applied) {
  if (!from.digest.empty())
    storage::mark_callback_seen(ctx.db(), from.voice_provider_id, from.digest);
  json_out out;
  out.w().StartObject();
  out.field("received", true);
  out.field("applied", applied);
  out.w().EndObject();
  ex->respond(200, out.take());
}

// A report about no known call of the configuration is acknowledged and
// ignored (the provider would only retry it). A call's report is
// acknowledged only once its effect committed; otherwise the answer is 503
// and the provider sends it again (so a repeat is recorded only once it
// was acknowledged). A later analysis is added to the ended call after the
// campaign settled its end.
void apply_report(const exchange_ptr& ex, worker_context& ctx, callback_of from,
                  std::optional<outbound::provider_report> report) {
  if (!report)
    return received(ex, ctx, from, false);
  auto route = storage::route_call(ctx.db(), from.voice_provider_id, report->call_id,
                                   report->provider_call_id);
  if (!route)
    return received(ex, ctx, from, false);
  auto update = report->update;
  update.call_id = route->call_id;
  auto analysis = std::move(report->analysis);
  if (analysis)
    domain::keep_within_limits(*analysis);
  // Runs on this worker, after the campaign answered.
  auto amend = [ex, ctx = worker_context{ctx}, route = *route, analysis,
                from = std::move(from)](bool) mutable {
    try {
      if (analysis)
        storage::amend_call_result(ctx.db(), route.tenant_id, route.call_id, *analysis);
      received(ex, ctx, from, true);
    } catch (const std::exception& e) {
      ex->fail(storage::translate(e));
    }
  };
  ctx.self
      ->request(ex->svc.registry, ex->svc.deadlines.settle, caf::get_atom::value,
                actors::campaign_atom::value, route->tenant_id, route->campaign_id)
      .then(
          [ex, self = ctx.self, update, amend](actors::campaign_actor& c) {
            self->request(c, ex->svc.deadlines.settle, actors::call_atom::value, update)
                .then(amend, [ex](caf::error& e) { ex->fail(actors::to_domain_error(e)); });
          },
          [ex](caf::error& e) { ex->fail(actors::to_domain_error(e)); });
}

// The callback's configuration when `sent` is the secret derived for the
// configuration `id` of `kind` (under the current service key or the one
// before it). Fails the exchange and answers nullopt otherwise.
std::optional<callback_of> derived_callback(const exchange_ptr& ex, std::optional<int64_t> id,
                                            std::string_view kind,
                                            const std::optional<std::string>& sent) {
  const auto& keys = ex->svc.callback_keys;
  if (id && sent && std::any_of(keys.begin(), keys.end(), [&](const std::string& key) {
        return domain::equal_constant_time(*sent, outbound::callback_secret(key, kind, *id));
      }))
    return callback_of{*id, {}};
  ex->fail(domain::error{domain::errc::unauthorized, "Invalid provider secret"});
  return std::nullopt;
}

// The callback's configuration when it is signed with a credential of its
// configuration as `vendor` signs: the configuration must be of its kind,
// the signature its own, within the scheme's time, and not one already
// acknowledged (the digests acknowledged are kept as long as a signature
// passes). Fails the exchange and answers nullopt otherwise.
std::optional<callback_of> signed_callback(const exchange_ptr& ex, worker_context& ctx,
                                           std::optional<int64_t> id,
                                           const outbound::provider_callback& vendor) {
  const domain::error invalid{domain::errc::unauthorized, "Invalid provider signature"};
  const auto& signature = ex->request.provider_proof;
  if (!id || !signature) {
    ex->fail(invalid);
    return std::nullopt;
  }
  auto provider = storage::find_callback_provider(ctx.db(), *id);
  auto key = provider && provider->kind == vendor.kind
                 ? outbound::open_credential(*ex->svc.secrets, provider->credentials,
                                             provider->tenant_id, vendor.signing_credential)
                 : std::nullopt;
  if (!key) {
    ex->fail(invalid);
    return std::nullopt;
  }
  auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  const auto& scheme = *vendor.scheme;
  switch (domain::check_provider_signature(scheme, *signature, *key, ex->request.body, now_ms)) {
  case domain::signature_check::invalid:
    ex->fail(invalid);
    return std::nullopt;
  case domain::signature_check::stale:
    ex->fail(domain::error{domain::errc::unauthorized,
                           "The provider signature's time is too old or too new"});
    return std::nullopt;
  case domain::signature_check::valid:
    break;
  }
  callback_of from{*id, domain::signature_digest(scheme, *signature)};
  if (storage::callback_seen(ctx.db(), *id, from.digest)) {
    ex->fail(
        domain::error{domain::errc::unauthorized, "This provider callback was already received"});
    return std::nullopt;
  }
  return from;
}

// POST on a vendor's callback route: the configuration the path names
// proves the callback (a derived secret in a header or the path, or a
// signature), and the vendor's reader says what it reports.
class provider_callback_handler final : public handler {
public:
  explicit provider_callback_handler(const outbound::provider_callback& vendor) : vendor_(vendor) {}

  access required_access() const override { return access::none; }
  std::string_view proof_header() const override { return vendor_.proof_header; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto from = vendor_.scheme ? signed_callback(ex, ctx, configuration(ex), vendor_)
                               : derived_callback(ex, configuration(ex), vendor_.kind, sent(ex));
    if (from)
      apply_report(ex, ctx, std::move(*from), vendor_.read(ex->request.body));
  }

private:
  std::optional<int64_t> configuration(const exchange_ptr& ex) const {
    auto id = ex->param("voice_provider_id");
    return vendor_.global_id ? domain::decode_global_id(domain::entity::voice_provider, id)
                             : domain::parse_positive_int(id);
  }

  std::optional<std::string> sent(const exchange_ptr& ex) const {
    if (vendor_.proof_header.empty())
      return std::string{ex->param("secret")};
    return ex->request.provider_proof;
  }

  const outbound::provider_callback& vendor_;
};

} // namespace

std::shared_ptr<handler> provider_callback(const outbound::provider_callback& vendor) {
  return std::make_shared<provider_callback_handler>(vendor);
}

} // namespace vcs::http::handlers
