#include "app/components.hpp"

#include "http/server/event_hub.hpp"

#include "actors/billing_scheduler.hpp"
#include "actors/db_worker.hpp"
#include "actors/dial_scheduler.hpp"
#include "actors/health_probe.hpp"
#include "actors/import_sweeper.hpp"
#include "actors/maintenance.hpp"
#include "actors/registry.hpp"
#include "actors/webhook_dispatcher.hpp"
#include "domain/api_key.hpp"
#include "domain/service_keys.hpp"
#include "http/metrics/metrics.hpp"
#include "http/server/token_book.hpp"
#include "http/work/cpu_pool.hpp"
#include "http/work/lead_page_cache.hpp"
#include "http/work/rate_limiter.hpp"
#include "outbound/provider_a_gateway.hpp"
#include "outbound/provider_b_gateway.hpp"
#include "outbound/provider_c_gateway.hpp"
#include "outbound/provider_d_gateway.hpp"
#include "storage/database.hpp"
#include "storage/dialer_repository.hpp"
#include "storage/import_job_repository.hpp"

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/send.hpp>
#include <spdlog/spdlog.h>

#include <functional>
#include <stdexcept>
#include <unistd.h>

namespace vcs::app {

namespace {

// Event streams: at most 8 of one tenant on a node (a console tab holds
// one), the feed read for them every half second.
constexpr std::size_t event_streams_per_tenant = 8;
constexpr std::chrono::milliseconds event_stream_interval{500};

// Names this process in import claims: host, pid and a random suffix, so a
// restarted node does not mistake an old claim for its own.
std::string node_id() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return std::string{host} + ":" + std::to_string(::getpid()) + ":" +
         domain::random_hex_32().substr(0, 8);
}

actors::simulated_settings simulated(const config& c) {
  auto mix = actors::parse_outcome_mix(c.simulated_outcomes);
  if (!mix)
    throw std::invalid_argument("simulated-outcomes must be outcome:weight pairs (human, "
                                "voicemail, no_answer, busy, failed, invalid_number), "
                                "not all 0");
  actors::simulated_settings s;
  s.mix = std::move(*mix);
  s.ring = c.simulated_ring;
  s.call_time = c.simulated_call;
  s.talk_seconds = static_cast<int32_t>(c.simulated_talk_seconds);
  return s;
}

} // namespace

void configure_actor_system(caf::actor_system_config& cfg, const config& c) {
  if (c.worker_threads > 0)
    cfg.set("scheduler.max-threads", c.worker_threads);
  // An idle scheduler thread sleeps on its condition variable at once (a
  // message from another thread wakes it) instead of polling: CAF's default
  // spins, then sleeps 50 µs at a time for 25 ms, which under load on two
  // cores cost tens of thousands of context switches a second.
  cfg.set("work-stealing.aggressive-poll-attempts", 0);
  cfg.set("work-stealing.moderate-poll-attempts", 0);
}

std::shared_ptr<actors::voice_gateway>
call_gateway(const config& c, outbound::outbound_client& outbound,
             std::shared_ptr<const domain::secret_box> secrets) {
  actors::live_gateways live;
  if (c.voice_mode == "live") {
    live["provider_a"] = outbound::make_provider_a_gateway(
        {c.provider_a_base_url, c.callback_base_url,
         domain::service_keys::from_hex(c.secret_key)->callback_signing},
        outbound, secrets);
    live["provider_b"] = outbound::make_provider_b_gateway(
        {c.provider_b_base_url, c.callback_base_url}, outbound, secrets);
    live["provider_c"] =
        outbound::make_provider_c_gateway({c.provider_c_base_url}, outbound, secrets);
    live["provider_d"] = outbound::make_provider_d_gateway(
        {c.provider_d_base_url, c.callback_base_url,
         domain::service_keys::from_hex(c.secret_key)->callback_signing},
        outbound, std::move(secrets));
  }
  return actors::make_routing_gateway(actors::make_simulated_gateway(simulated(c)),
                                      std::move(live));
}

actors::entity_config_ptr entity_settings(const config& c,
                                          std::shared_ptr<const actors::db_pool> pool,
                                          std::shared_ptr<actors::voice_gateway> gateway) {
  auto e = std::make_shared<actors::entity_config>();
  e->pool = std::move(pool);
  e->settings = c.entities;
  e->max_write_wait = c.deadlines().answer;
  e->node_id = node_id();
  e->gateway = std::move(gateway);
  return e;
}

node_actors start_node_actors(caf::actor_system& sys, const config& c,
                              const std::string& session_url, outbound::outbound_client& outbound,
                              std::shared_ptr<const domain::secret_box> secrets) {
  node_actors n;
  n.pool = std::make_shared<actors::db_pool>(
      actors::db_pool::spawn(sys, session_url, c.db_pool_size, c.deadlines().database));
  auto entities = entity_settings(c, n.pool, call_gateway(c, outbound, secrets));
  n.node_id = entities->node_id;
  n.registry = sys.spawn(actors::registry, entities);
  n.sweeper = sys.spawn(actors::import_sweeper, entities, n.registry, c.import_sweep_interval);
  n.maintenance = sys.spawn(actors::maintenance, entities, c.maintenance);
  // Nobody to tell when its task ran, nobody to cancel it.
  n.lock_worker =
      sys.spawn<caf::detached>(actors::db_worker, session_url, std::function<void(std::uint64_t)>{},
                               std::shared_ptr<storage::statement_cancel>{});
  n.billing = sys.spawn(actors::billing_scheduler, entities, n.registry, n.lock_worker,
                        c.billing_sweep_interval);
  n.dialer = sys.spawn(actors::dial_scheduler, entities, n.registry, c.dial);
  n.webhooks = sys.spawn(actors::webhook_dispatcher, entities, outbound.poster(),
                         std::move(secrets), c.webhooks);
  n.database_up = std::make_shared<std::atomic<bool>>(true);
  n.probe = sys.spawn<caf::detached>(actors::health_probe, session_url, n.database_up,
                                     std::chrono::milliseconds(500));
  return n;
}

void node_actors::stop() {
  caf::anon_send_exit(sweeper, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(maintenance, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(billing, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(dialer, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(webhooks, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(probe, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(lock_worker, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(registry, caf::exit_reason::user_shutdown);
  pool->shutdown();
}

void hand_on_work(const std::string& session_url, const std::string& node_id) {
  try {
    auto sql = storage::open_session(session_url);
    if (auto n = storage::release_import_claims(*sql, node_id); n > 0)
      spdlog::info("handed on {} unfinished import(s) to the other nodes", n);
    if (auto n = storage::release_dial_claims(*sql, node_id); n > 0)
      spdlog::info("handed on {} unfinished dial pass(es) to the other nodes", n);
  } catch (const std::exception& e) {
    spdlog::warn("imports and dial passes not handed on (they go stale instead): {}", e.what());
  }
}

std::shared_ptr<http::services> request_services(const config& c, const node_actors& node,
                                                 std::shared_ptr<const domain::secret_box> secrets,
                                                 const outbound::outbound_client& outbound,
                                                 const std::string& session_url) {
  auto svc = std::make_shared<http::services>();
  svc->registry = node.registry;
  svc->db_pool = node.pool;
  svc->billing = node.billing;
  svc->dialer = node.dialer;
  svc->database_up = node.database_up;
  svc->metrics = std::make_shared<http::metrics>();
  svc->operator_token = c.operator_token;
  svc->deadlines = c.deadlines();
  svc->max_queue_wait = c.max_queue_wait;
  svc->allow_test_clock = c.allow_test_clock;
  svc->cpu = std::make_shared<http::cpu_pool>(c.cpu_heavy_threads, c.tenant_max_pending);
  svc->lead_pages = std::make_shared<http::lead_page_cache>(c.lead_page_cache_mb << 20);
  svc->tokens = std::make_shared<http::token_book>();
  svc->events = std::make_shared<http::event_hub>(session_url, event_streams_per_tenant,
                                                  event_stream_interval, c.event_stream_lifetime);
  if (auto rates = *read_tenant_rate_limit(c.tenant_rate_limit); rates.enabled) {
    svc->rates = std::make_shared<http::rate_limiter>();
    svc->rate_override = rates.every_tenant;
  }
  svc->secrets = std::move(secrets);
  svc->outbound = &outbound;
  const auto keys = *domain::service_keys::from_hex(c.secret_key);
  svc->callback_keys = {keys.callback_signing, keys.legacy_callback_signing};
  return svc;
}

http::fair_queue_settings public_share(const config& c) {
  http::fair_queue_settings s;
  s.workers = c.request_workers;
  s.per_client_workers = c.tenant_max_workers != 0
                             ? c.tenant_max_workers
                             : std::max<std::size_t>(1, c.request_workers - 1);
  s.per_client_pending = c.tenant_max_pending;
  s.max_pending = c.max_queued_requests;
  return s;
}

http::fair_queue_settings operator_share(const config& c) {
  http::fair_queue_settings s;
  s.workers = c.operator_workers;
  s.per_client_workers = c.operator_workers;
  s.per_client_pending = 0;
  s.max_pending = c.max_queued_requests;
  return s;
}

std::shared_ptr<http::readiness> readiness(const config& c, const node_actors& node,
                                           const http::front_pool& public_front) {
  return std::make_shared<http::readiness>(
      http::readiness::sources{
          [up = node.database_up] { return up->load(std::memory_order_relaxed); },
          [&public_front] { return public_front.saturated_since(); },
          [pool = node.pool] { return pool->saturated(); }},
      c.readiness_saturation);
}

http::server_options server_settings(const config& c, const node_actors& node,
                                     const http::services& svc) {
  auto o = c.server;
  o.database_up = [up = node.database_up] { return up->load(std::memory_order_relaxed); };
  o.unready = [ready = svc.ready] { return ready->unready_reason(); };
  o.inline_metrics = svc.metrics;
  o.tokens = svc.tokens;
  return o;
}

} // namespace vcs::app
