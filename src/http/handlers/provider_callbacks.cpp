// Call-status callbacks from live voice providers (no API key: each
// configuration's callbacks prove themselves with a secret derived for it,
// provider_a and provider_d, or a signature made with its API key,
// provider_b, or with its webhook's secret, provider_c).

#include "domain/global_id.hpp"
#include "domain/provider_signature.hpp"
#include "domain/webhook_signature.hpp"
#include "http/callback_secret.hpp"
#include "http/handlers/handlers.hpp"
#include "http/json.hpp"
#include "http/provider_a_gateway.hpp"
#include "http/provider_b_gateway.hpp"
#include "http/provider_c_gateway.hpp"
#include "http/provider_credentials.hpp"
#include "http/provider_d_gateway.hpp"
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
                  std::optional<provider_report> report) {
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

// Whether `sent` is the secret derived for the configuration `id` of
// `kind` (under the current service key or the one before it).
bool derived_secret_matches(const exchange_ptr& ex, std::string_view kind,
                            std::optional<int64_t> id, const std::optional<std::string>& sent) {
  const auto& keys = ex->svc.callback_keys;
  return id && sent && std::any_of(keys.begin(), keys.end(), [&](const std::string& key) {
           return domain::equal_constant_time(*sent, callback_secret(key, kind, *id));
         });
}

// POST /webhooks/provider-a/{voice_provider_id}: provider_a's server
// messages, with the configuration's derived secret in X-Vapi-Secret.
class provider_a_callback_handler final : public handler {
public:
  access required_access() const override { return access::none; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto id = domain::parse_positive_int(ex->param("voice_provider_id"));
    if (!derived_secret_matches(ex, "provider_a", id, ex->request.provider_secret))
      return ex->fail(domain::error{domain::errc::unauthorized, "Invalid provider secret"});
    apply_report(ex, ctx, {*id, {}}, read_provider_a_message(ex->request.body));
  }
};

// POST /webhooks/provider-d/{voice_provider_id}/{secret}: provider_d's call
// object when a call ends, to the webhook URL the service gave the call,
// which carries the configuration's derived secret. A repeat about an
// ended call changes nothing.
class provider_d_callback_handler final : public handler {
public:
  access required_access() const override { return access::none; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto id = domain::parse_positive_int(ex->param("voice_provider_id"));
    if (!derived_secret_matches(ex, "provider_d", id, std::string{ex->param("secret")}))
      return ex->fail(domain::error{domain::errc::unauthorized, "Invalid provider secret"});
    apply_report(ex, ctx, {*id, {}}, read_provider_d_call(ex->request.body));
  }
};

// A callback signed with a credential of its configuration (`field`, in
// `scheme`): the configuration must be of `kind`, the signature its own,
// within the scheme's time, and not one already acknowledged (the digests
// acknowledged are kept as long as a signature passes). Fails the exchange
// and answers nullopt otherwise.
std::optional<callback_of> signed_callback(const exchange_ptr& ex, worker_context& ctx,
                                           std::optional<int64_t> id, std::string_view kind,
                                           const domain::signature_scheme& scheme,
                                           const char* field) {
  const domain::error invalid{domain::errc::unauthorized, "Invalid provider signature"};
  const auto& signature = ex->request.provider_signature;
  if (!id || !signature) {
    ex->fail(invalid);
    return std::nullopt;
  }
  auto provider = storage::find_callback_provider(ctx.db(), *id);
  auto key =
      provider && provider->kind == kind
          ? open_credential(*ex->svc.secrets, provider->credentials, provider->tenant_id, field)
          : std::nullopt;
  if (!key) {
    ex->fail(invalid);
    return std::nullopt;
  }
  auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
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

// POST /webhooks/provider-b/{voice_provider_id}: provider_b's call events,
// signed with the configuration's API key in X-Retell-Signature.
class provider_b_callback_handler final : public handler {
public:
  access required_access() const override { return access::none; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto from = signed_callback(ex, ctx, domain::parse_positive_int(ex->param("voice_provider_id")),
                                "provider_b", domain::provider_b_signature, "provider_b_api_key");
    if (from)
      apply_report(ex, ctx, std::move(*from), read_provider_b_event(ex->request.body));
  }
};

// POST /webhooks/provider-c/{voice_provider_id}: provider_c's post-call
// webhook, which the tenant points here with the configuration's public
// id, signed in ElevenLabs-Signature with the webhook's secret. Without a
// secret in the configuration nothing can be checked, so nothing is read.
class provider_c_callback_handler final : public handler {
public:
  access required_access() const override { return access::none; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto from = signed_callback(
        ex, ctx,
        domain::decode_global_id(domain::entity::voice_provider, ex->param("voice_provider_id")),
        "provider_c", domain::provider_c_signature, "provider_c_webhook_secret_key");
    if (from)
      apply_report(ex, ctx, std::move(*from), read_provider_c_event(ex->request.body));
  }
};

} // namespace

std::shared_ptr<handler> provider_a_callback() {
  return std::make_shared<provider_a_callback_handler>();
}

std::shared_ptr<handler> provider_b_callback() {
  return std::make_shared<provider_b_callback_handler>();
}

std::shared_ptr<handler> provider_c_callback() {
  return std::make_shared<provider_c_callback_handler>();
}

std::shared_ptr<handler> provider_d_callback() {
  return std::make_shared<provider_d_callback_handler>();
}

} // namespace vcs::http::handlers
