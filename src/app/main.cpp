// voice-campaign-service: assembles the components and runs a command.

#include "actors/billing_scheduler.hpp"
#include "actors/db_pool.hpp"
#include "actors/db_worker.hpp"
#include "actors/dial_scheduler.hpp"
#include "actors/entity_config.hpp"
#include "actors/health_probe.hpp"
#include "actors/import_sweeper.hpp"
#include "actors/registry.hpp"
#include "actors/voice_gateway.hpp"
#include "actors/webhook_dispatcher.hpp"
#include "app/config.hpp"
#include "domain/api_key.hpp"
#include "domain/request_deadlines.hpp"
#include "domain/secret_box.hpp"
#include "http/cpu_pool.hpp"
#include "http/front_pool.hpp"
#include "http/outbound_client.hpp"
#include "http/provider_a_gateway.hpp"
#include "http/rate_limiter.hpp"
#include "http/readiness.hpp"
#include "http/routes.hpp"
#include "http/server.hpp"
#include "storage/database.hpp"
#include "storage/migrations.hpp"

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/send.hpp>
#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>
#include <sys/resource.h>
#include <unistd.h>

namespace {

using namespace vcs;

void configure_logging(const app::config& c) {
  auto level = spdlog::level::from_str(c.log_level);
  if (level == spdlog::level::off && c.log_level != "off")
    throw std::invalid_argument("unknown log level '" + c.log_level + "'");
  spdlog::set_level(level);
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%fZ %l %v", spdlog::pattern_time_type::utc);
}

// Names this process in import claims: host, pid and a random suffix, so a
// restarted node does not mistake an old claim for its own.
std::string node_id() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return std::string{host} + ":" + std::to_string(::getpid()) + ":" +
         domain::random_hex_32().substr(0, 8);
}

// Both listeners' connections need descriptors: raise the soft limit to the
// hard one, and say so when even that cannot hold them.
void raise_file_limit(std::size_t max_connections) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
    return;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
  // Database sessions, the listeners and the log need some more.
  constexpr rlim_t reserve = 256;
  if (max_connections != 0 && limit.rlim_cur < 2 * max_connections + reserve)
    spdlog::warn("open file limit {} is below two listeners' max-connections ({} each); "
                 "accepting pauses while descriptors run out",
                 limit.rlim_cur, max_connections);
}

int run_migrate(const app::config& c) {
  app::require_database(c);
  auto sql = storage::open_session(c.database_url);
  auto report = storage::migrate(*sql);
  spdlog::info("migrations: {} applied, schema version {}", report.applied, report.current);
  return 0;
}

actors::simulated_settings simulated(const app::config& c) {
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

int run_serve(const app::config& c) {
  app::require_serve_settings(c);
  domain::init_crypto();
  {
    auto sql = storage::open_session(c.database_url);
    auto report = storage::migrate(*sql);
    spdlog::info("migrations: {} applied, schema version {}", report.applied, report.current);
  }

  caf::actor_system_config cfg;
  if (c.worker_threads > 0)
    cfg.set("scheduler.max-threads", c.worker_threads);
  // An idle scheduler thread sleeps on its condition variable at once (a
  // message from another thread wakes it) instead of polling: CAF's default
  // spins, then sleeps 50 µs at a time for 25 ms, which under load on two
  // cores cost tens of thousands of context switches a second.
  cfg.set("work-stealing.aggressive-poll-attempts", 0);
  cfg.set("work-stealing.moderate-poll-attempts", 0);
  caf::actor_system sys{cfg};

  auto secrets =
      std::make_shared<const domain::secret_box>(*domain::secret_box::from_hex(c.secret_key));
  http::outbound_client outbound{*domain::outbound_policy::parse(c.outbound_allow)};
  std::shared_ptr<actors::voice_gateway> live;
  if (c.voice_mode == "live")
    live = http::make_provider_a_gateway({c.provider_a_base_url, c.callback_base_url, c.secret_key},
                                         outbound, secrets);
  auto gateway = actors::make_routing_gateway(actors::make_simulated_gateway(simulated(c)), live,
                                              "provider_a");

  // Every session serving requests and schedulers has statement and lock
  // time limits; migrations (above) run without them.
  const auto session_url =
      storage::with_session_limits(c.database_url, c.db_statement_timeout, c.db_lock_timeout);
  const auto deadlines = domain::deadlines_for(c.actor_timeout);
  auto pool = std::make_shared<actors::db_pool>(
      actors::db_pool::spawn(sys, session_url, c.db_pool_size, deadlines.database));
  auto entities = std::make_shared<actors::entity_config>();
  entities->pool = pool;
  entities->idle_timeout = c.entity_idle_timeout;
  entities->max_batch = c.batch_size;
  entities->max_write_wait = deadlines.answer;
  entities->node_id = node_id();
  entities->import_chunk_size = static_cast<int32_t>(c.import_chunk_size);
  entities->import_stale_seconds = static_cast<int32_t>(c.import_stale_seconds);
  entities->payment_due = std::chrono::hours(24 * c.billing_payment_due_days);
  entities->grace_period = std::chrono::hours(24 * c.billing_grace_days);
  entities->gateway = gateway;
  entities->dial_batch = static_cast<int32_t>(c.dial_batch);
  entities->dial_idle_poll = std::chrono::seconds(c.dial_idle_poll_seconds);
  auto registry = sys.spawn(actors::registry, actors::entity_config_ptr{entities});
  auto sweeper = sys.spawn(actors::import_sweeper, actors::entity_config_ptr{entities}, registry,
                           c.import_sweep_interval);
  // Outside the pool: nobody to tell when its task ran, nobody to cancel it.
  auto lock_worker =
      sys.spawn<caf::detached>(actors::db_worker, session_url, std::function<void(std::uint64_t)>{},
                               std::shared_ptr<storage::statement_cancel>{});
  auto billing = sys.spawn(actors::billing_scheduler, actors::entity_config_ptr{entities}, registry,
                           lock_worker, c.billing_sweep_interval);

  actors::dial_scheduler_settings dial_settings;
  dial_settings.interval = c.dial_interval;
  dial_settings.lease_seconds = static_cast<int32_t>(c.dial_lease_seconds);
  dial_settings.lost_call_seconds = static_cast<int32_t>(c.dial_lost_call_seconds);
  auto dialer = sys.spawn(actors::dial_scheduler, actors::entity_config_ptr{entities}, registry,
                          dial_settings);
  actors::webhook_settings hook_settings;
  hook_settings.interval = c.webhook_interval;
  hook_settings.max_attempts = static_cast<int32_t>(c.webhook_max_attempts);
  hook_settings.base_backoff = c.webhook_backoff;
  hook_settings.max_backoff = c.webhook_max_backoff;
  hook_settings.timeout = c.webhook_timeout;
  auto webhooks = sys.spawn(actors::webhook_dispatcher, actors::entity_config_ptr{entities},
                            outbound.poster(), secrets, hook_settings);

  auto database_up = std::make_shared<std::atomic<bool>>(true);
  auto probe = sys.spawn<caf::detached>(actors::health_probe, session_url, database_up,
                                        std::chrono::milliseconds(500));

  auto svc = std::make_shared<http::services>();
  svc->registry = registry;
  svc->billing = billing;
  svc->dialer = dialer;
  svc->database_up = database_up;
  svc->metrics = std::make_shared<http::metrics>();
  svc->operator_token = c.operator_token;
  svc->deadlines = deadlines;
  svc->max_queue_wait = c.max_queue_wait;
  svc->cpu = std::make_shared<http::cpu_pool>(c.cpu_heavy_threads, c.tenant_max_pending);
  if (auto rates = *app::read_tenant_rate_limit(c.tenant_rate_limit); rates.enabled) {
    svc->rates = std::make_shared<http::rate_limiter>();
    svc->rate_override = rates.every_tenant;
  }
  svc->secrets = secrets;
  svc->outbound = &outbound;
  svc->callback_key = c.secret_key;
  auto routes = std::make_shared<http::route_tables>(
      http::route_tables{http::public_routes(), http::operator_routes()});
  // Each listener has its own workers, shared fairly among its clients.
  http::fair_queue_settings public_share;
  public_share.workers = c.request_workers;
  public_share.per_client_workers = c.tenant_max_workers != 0
                                        ? c.tenant_max_workers
                                        : std::max<std::size_t>(1, c.request_workers - 1);
  public_share.per_client_pending = c.tenant_max_pending;
  public_share.max_pending = c.max_queued_requests;
  http::front_pool public_front{sys, public_share, routes, svc, session_url};
  http::fair_queue_settings operator_share;
  operator_share.workers = c.operator_workers;
  operator_share.per_client_workers = c.operator_workers;
  operator_share.per_client_pending = 0;
  operator_share.max_pending = c.max_queued_requests;
  http::front_pool operator_front{sys, operator_share, routes, svc, session_url};

  svc->ready = std::make_shared<http::readiness>(
      http::readiness::sources{
          [database_up] { return database_up->load(std::memory_order_relaxed); },
          [&public_front] { return public_front.saturated_since(); },
          [pool] { return pool->saturated(); }},
      c.readiness_saturation);

  http::server_options opts;
  opts.public_listen = c.public_listen;
  opts.operator_listen = c.operator_listen;
  opts.io_threads = c.io_threads;
  opts.header_limit = c.header_limit;
  opts.body_limit = c.body_limit;
  opts.bulk_body_limit = c.bulk_body_limit;
  opts.idle_timeout = c.idle_timeout;
  opts.read_timeout = c.read_timeout;
  opts.shutdown_timeout = c.shutdown_timeout;
  opts.max_connections = c.max_connections;
  opts.max_connections_per_client = c.max_connections_per_client;
  raise_file_limit(opts.max_connections);
  opts.database_up = [database_up] { return database_up->load(std::memory_order_relaxed); };
  opts.unready = [ready = svc->ready] { return ready->unready_reason(); };
  opts.inline_metrics = svc->metrics;
  http::server server{opts, [&public_front, &operator_front](http::http_call call) {
                        if (call.request.listener == http::listener_kind::operator_api)
                          operator_front.dispatch(std::move(call));
                        else
                          public_front.dispatch(std::move(call));
                      }};
  server.start();
  spdlog::info("serving public API on {} (port {}), operator API on {} (port {})", c.public_listen,
               server.public_port(), c.operator_listen, server.operator_port());

  server.wait_for_signal_and_drain();
  public_front.shutdown();
  operator_front.shutdown();
  caf::anon_send_exit(sweeper, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(billing, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(dialer, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(webhooks, caf::exit_reason::user_shutdown);
  outbound.stop();
  caf::anon_send_exit(probe, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(lock_worker, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(registry, caf::exit_reason::user_shutdown);
  pool->shutdown();
  spdlog::info("shut down cleanly");
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  try {
    auto cmd = app::parse_command_line(argc, argv);
    if (cmd.command == "help") {
      std::cout << app::usage();
      return 0;
    }
    configure_logging(cmd.settings);
    if (cmd.command == "migrate")
      return run_migrate(cmd.settings);
    return run_serve(cmd.settings);
  } catch (const std::invalid_argument& e) {
    std::cerr << "voice-campaign-service: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "voice-campaign-service: fatal: " << e.what() << "\n";
    return 1;
  }
}
