#include "actors/webhook_dispatcher.hpp"

#include "actors/actor_error.hpp"
#include "actors/ask_database.hpp"
#include "actors/webhook_outcome.hpp"
#include "actors/work_counters.hpp"
#include "domain/sealed_bindings.hpp"
#include "domain/standard_webhook.hpp"
#include "domain/webhook_signature.hpp"
#include "storage/webhook_repository.hpp"

#include <caf/actor_cast.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/send.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>

namespace vcs::actors {

namespace {

using self_ptr = webhook_dispatcher_actor::stateful_pointer<webhook_dispatcher_state>;
using claim_list = std::vector<storage::webhook_claim>;

template <class F> void run_db(self_ptr self, F f) {
  auto cfg = self->state.config;
  ask_database(
      self, cfg->pool->dispatcher(), cfg->pool->timeout(), 0,
      [f = std::move(f)](soci::session& sql) {
        f(sql);
        return true;
      },
      [](bool) {},
      [](const caf::error& e) {
        // The lease expires and the delivery is sent again: at least once.
        spdlog::warn("webhook outcome not stored: {}", to_domain_error(e).message);
      });
}

// The secrets that sign a delivery: the current one first.
std::vector<std::string> open_secrets(const webhook_dispatcher_state& st,
                                      const storage::webhook_claim& c) {
  std::vector<std::string> out;
  const auto binding = domain::webhook_secret_binding(c.delivery.tenant_id);
  for (const auto& sealed : {c.secret, c.previous_secret})
    if (sealed)
      if (auto opened = st.secrets->open(*sealed, binding))
        out.push_back(std::move(*opened));
  return out;
}

void send(self_ptr self, storage::webhook_claim& c) {
  auto& st = self->state;
  auto me = caf::actor_cast<webhook_dispatcher_actor>(self);
  auto& d = c.delivery;
  webhook_result result;
  result.tenant_id = d.tenant_id;
  result.delivery_id = d.id;
  result.attempts = d.attempts;
  ++st.in_flight;
  ++st.tenant_in_flight[d.tenant_id];
  auto skip = [&](const char* reason) {
    result.skipped = true;
    result.error = reason;
    caf::anon_send(me, deliver_atom::value, result);
  };
  if (c.endpoint_disabled)
    return skip("endpoint disabled");
  auto secrets = open_secrets(st, c);
  // Nothing accepted is dropped for a missing setting: the delivery waits
  // until the tenant makes a secret (which wakes it).
  if (secrets.empty()) {
    result.waiting = true;
    if (c.secret)
      result.unopened_secret = c.secret->ciphertext;
    result.error = c.secret ? "the webhook signing secret cannot be opened with this "
                              "service's secret key; make a new one (POST /api/v2/webhook-secret)"
                            : "the tenant has no webhook signing secret yet; make one "
                              "(POST /api/v2/webhook-secret) and this delivery is sent";
    caf::anon_send(me, deliver_atom::value, result);
    return;
  }
  std::vector<std::string> keys;
  for (const auto& secret : secrets)
    if (auto key = domain::standard_webhook_key(secret))
      keys.push_back(std::move(*key));
  auto unix_now = std::chrono::duration_cast<std::chrono::seconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  outbound_post post;
  post.tenant_id = d.tenant_id;
  post.url = d.url;
  post.timeout = st.settings.timeout;
  post.headers = {{"Content-Type", "application/json"},
                  {"User-Agent", "voice-campaign-service-webhooks/2"},
                  {std::string{domain::webhook_id_header}, d.event_id},
                  {std::string{domain::webhook_timestamp_header}, std::to_string(unix_now)},
                  {std::string{domain::webhook_signature_header},
                   domain::standard_webhook_signatures(keys, d.event_id, unix_now, d.payload)},
                  {std::string{domain::legacy_signature_header},
                   domain::sign_webhook(secrets, unix_now, d.payload)},
                  {"X-VCS-Event", d.event_type},
                  {"X-VCS-Event-Id", d.event_id},
                  {"X-VCS-Delivery-Attempt", std::to_string(d.attempts)}};
  post.body = std::move(d.payload);
  st.post(std::move(post), [me, result](outbound_result r) mutable {
    result.status_code = r.status == 0 ? std::nullopt : std::optional<int32_t>{r.status};
    if (r.status < 200 || r.status > 299)
      result.error = r.status == 0 ? r.error : "HTTP " + std::to_string(r.status);
    caf::anon_send(me, deliver_atom::value, result);
  });
}

void record(self_ptr self, const webhook_result& r) {
  auto& st = self->state;
  ++(r.error.empty()          ? counters().webhooks_delivered
     : r.skipped || r.waiting ? counters().webhooks_skipped
                              : counters().webhooks_failed);
  if (r.error.empty()) {
    auto code = r.status_code.value_or(200);
    return run_db(self, [r, code](soci::session& sql) {
      storage::mark_webhook_delivered(sql, r.delivery_id, code);
    });
  }
  if (r.skipped)
    return run_db(self, [r](soci::session& sql) {
      storage::mark_webhook_skipped(sql, r.delivery_id, r.error);
    });
  if (r.waiting)
    return run_db(self, [r](soci::session& sql) {
      storage::mark_webhook_waiting(sql, r.delivery_id, r.error, r.unopened_secret);
    });
  webhook_failure f{r.tenant_id, r.delivery_id, r.status_code,
                    r.error,     std::nullopt,  domain::retry_span(st.settings.retry)};
  const double jitter = std::uniform_real_distribution<double>{0.0, 1.0}(st.random);
  if (auto wait = domain::retry_delay(st.settings.retry, r.attempts, jitter))
    f.retry_at = domain::now() + std::chrono::duration_cast<std::chrono::microseconds>(*wait);
  run_db(self, [f = std::move(f)](soci::session& sql) {
    if (record_webhook_failure(sql, f))
      spdlog::warn("webhook endpoint of tenant {} disabled after delivery {} failed ({})",
                   f.tenant_id, f.delivery_id, f.error);
  });
}

void claim(self_ptr self) {
  auto& st = self->state;
  auto room = st.settings.batch - st.in_flight;
  if (st.claiming || room <= 0)
    return;
  st.claiming = true;
  // The lease outlasts a send (timeout) with room to store its outcome.
  auto lease = static_cast<int32_t>(
      std::chrono::duration_cast<std::chrono::seconds>(st.settings.timeout).count() + 30);
  std::vector<int64_t> full;
  for (const auto& [tenant, n] : st.tenant_in_flight)
    if (n >= st.settings.per_tenant)
      full.push_back(tenant);
  auto cfg = st.config;
  ask_database(
      self, cfg->pool->dispatcher(), cfg->pool->timeout(), 0,
      [lease, room, full = std::move(full)](soci::session& sql) {
        return storage::claim_webhooks(sql, lease, room, full);
      },
      [self](claim_list& claimed) {
        auto& st = self->state;
        st.claiming = false;
        // One tenant's backlog may fill a claim: past its share, its
        // deliveries go back for the next claim, which skips it.
        std::vector<int64_t> over;
        for (auto& d : claimed) {
          const bool sends = !d.endpoint_disabled && d.secret;
          if (sends && st.tenant_in_flight[d.delivery.tenant_id] >= st.settings.per_tenant)
            over.push_back(d.delivery.id);
          else
            send(self, d);
        }
        if (!over.empty())
          run_db(self, [over = std::move(over)](soci::session& sql) {
            storage::release_webhooks(sql, over);
          });
      },
      [self](const caf::error& e) {
        self->state.claiming = false;
        spdlog::warn("webhook claim failed: {}", to_domain_error(e).message);
      });
}

} // namespace

webhook_dispatcher_actor::behavior_type
webhook_dispatcher(webhook_dispatcher_actor::stateful_pointer<webhook_dispatcher_state> self,
                   entity_config_ptr config, http_poster post,
                   std::shared_ptr<const domain::secret_box> secrets, webhook_settings settings) {
  self->state.config = std::move(config);
  self->state.post = std::move(post);
  self->state.secrets = std::move(secrets);
  self->state.settings = settings;
  self->send(self, tick_atom::value);
  return {
      [self](tick_atom) {
        claim(self);
        self->delayed_send(self, self->state.settings.interval, tick_atom::value);
      },
      [self](deliver_atom, webhook_result r) {
        auto& st = self->state;
        --st.in_flight;
        if (auto it = st.tenant_in_flight.find(r.tenant_id);
            it != st.tenant_in_flight.end() && --it->second <= 0)
          st.tenant_in_flight.erase(it);
        record(self, r);
      },
  };
}

} // namespace vcs::actors
