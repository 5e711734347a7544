// voice-campaign-service: assembles the components and runs a command.

#include "app/admin_command.hpp"
#include "app/build_info.hpp"
#include "app/components.hpp"
#include "app/config.hpp"
#include "app/json_log_formatter.hpp"
#include "app/service_manager.hpp"
#include "domain/api_key.hpp"
#include "domain/calling_rules.hpp"
#include "domain/service_keys.hpp"
#include "http/server/access_log.hpp"
#include "http/server/server.hpp"
#include "http/work/cpu_pool.hpp"
#include "http/work/front_pool.hpp"
#include "http/work/routes.hpp"
#include "outbound/outbound_client.hpp"
#include "storage/database.hpp"
#include "storage/migrations.hpp"
#include "storage/secret_reseal.hpp"

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>
#include <sys/resource.h>
#include <thread>

namespace {

using namespace vcs;

void configure_logging(const app::config& c) {
  auto level = spdlog::level::from_str(c.log_level);
  if (level == spdlog::level::off && c.log_level != "off")
    throw std::invalid_argument("unknown log level '" + c.log_level + "'");
  spdlog::set_level(level);
  if (c.log_format == "json")
    spdlog::set_formatter(std::make_unique<app::json_log_formatter>());
  else if (c.log_format == "text")
    spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%fZ %l %v", spdlog::pattern_time_type::utc);
  else
    throw std::invalid_argument("log-format must be text or json, not '" + c.log_format + "'");
  // Access lines go through a logger of their own on the same sink, so the
  // JSON formatter knows their payload is a set of fields.
  http::set_access_log(c.log_format == "json" ? http::log_format::json : http::log_format::text,
                       spdlog::default_logger()->clone("access"));
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

void run_migrations(const app::config& c) {
  auto sql = storage::open_session(c.database_url);
  auto report = storage::migrate(*sql);
  spdlog::info("migrations: {} applied, schema version {}", report.applied, report.current);
  // Secrets sealed with the service key itself are sealed again with the key
  // derived for sealing (once per database; needs the service key).
  if (auto keys = domain::service_keys::from_hex(c.secret_key))
    if (auto resealed = storage::reseal_stored_secrets(*sql, keys->box()))
      spdlog::info("stored secrets sealed with the sealing key: {}", *resealed);
}

// `migrate --status`: what `migrate` would apply, changing nothing. Exit
// status 0 when the schema is this binary's, 3 when migrations are pending,
// 4 when the database was migrated by a newer binary.
int print_migration_status(const app::config& c) {
  auto sql = storage::open_session(c.database_url);
  const auto status = storage::read_migration_status(*sql);
  std::cout << "schema version " << status.current << ", this binary's " << status.latest << "\n";
  for (const auto& name : status.pending)
    std::cout << "pending: " << name << "\n";
  if (status.current > status.latest) {
    std::cout << "the database has migrations this binary does not know: run a newer binary\n";
    return 4;
  }
  if (!status.pending.empty())
    return 3;
  std::cout << "up to date\n";
  return 0;
}

int run_migrate(const app::config& c, const std::vector<std::string>& arguments) {
  app::require_database(c);
  if (!arguments.empty())
    return print_migration_status(c);
  run_migrations(c);
  return 0;
}

// Serves until a signal and drains; returns this node's id once its actor
// system has ended (its destructor waits for every actor), so none of the
// node's work is still in flight.
std::string serve(const app::config& c, const std::string& session_url) {
  // Read before any campaign is: data that does not read stops the start.
  const auto& rules = domain::calling_rules();
  spdlog::info("calling rules {}, reviewed {}: {} rules", rules.version, rules.reviewed_on,
               rules.rules.size());
  caf::actor_system_config cfg;
  app::configure_actor_system(cfg, c);
  caf::actor_system sys{cfg};

  auto secrets = std::make_shared<const domain::secret_box>(
      domain::service_keys::from_hex(c.secret_key)->box());
  outbound::outbound_client outbound{*domain::outbound_policy::parse(c.outbound_allow)};
  auto node = app::start_node_actors(sys, c, session_url, outbound, secrets);

  auto svc = app::request_services(c, node, secrets, outbound, session_url);
  auto routes = std::make_shared<http::route_tables>(
      http::route_tables{http::public_routes(), http::operator_routes()});
  // Each listener has its own workers, shared fairly among its clients.
  http::front_pool public_front{sys, app::public_share(c), svc, session_url};
  http::front_pool operator_front{sys, app::operator_share(c), svc, session_url};
  svc->ready = app::readiness(c, node, public_front);
  svc->public_url = app::effective_public_url(c);
  svc->callback_base_url = c.callback_base_url;
  svc->metrics->set_build(app::build_version, app::build_commit);
  svc->metrics->watch_workers(http::listener_kind::public_api,
                              [&public_front] { return public_front.load(); });
  svc->metrics->watch_workers(http::listener_kind::operator_api,
                              [&operator_front] { return operator_front.load(); });

  raise_file_limit(c.server.max_connections);
  http::server server{app::server_settings(c, node, *svc), routes,
                      [&public_front, &operator_front](http::http_call call) {
                        auto& front = call.request.listener == http::listener_kind::operator_api
                                          ? operator_front
                                          : public_front;
                        front.dispatch(std::move(call));
                      }};
  server.start();
  spdlog::info("serving public API on {} (port {}), operator API on {} (port {})",
               c.server.public_listen, server.public_port(), c.server.operator_listen,
               server.operator_port());
  app::notify_ready();

  int sig = server.wait_for_signal();
  app::notify_stopping();
  if (c.drain_delay.count() > 0) {
    spdlog::info("signal {} received: not ready, serving {} ms more while load balancers "
                 "take this node out",
                 sig, c.drain_delay.count());
    server.announce_draining();
    std::this_thread::sleep_for(c.drain_delay);
  } else {
    spdlog::info("signal {} received", sig);
  }
  server.drain();
  public_front.shutdown();
  operator_front.shutdown();
  node.stop();
  outbound.stop();
  // A request an actor still holds (a drain that timed out, an answer
  // awaited from another actor), or one still queued, holds its connection,
  // which must end before the server's I/O context does (destroyed first,
  // as it was made last).
  sys.await_all_actors_done();
  public_front.drop_queued();
  operator_front.drop_queued();
  // So does a step on the CPU pool (a password being hashed): its threads
  // end before the server does.
  svc->cpu->stop();
  return node.node_id;
}

int run_serve(const app::config& c) {
  app::require_serve_settings(c);
  domain::init_crypto();
  run_migrations(c);
  // Every session serving requests and schedulers has statement and lock
  // time limits; migrations (above) run without them.
  const auto session_url =
      storage::with_session_limits(c.database_url, c.db_statement_timeout, c.db_lock_timeout);
  const auto node_id = serve(c, session_url);
  app::hand_on_work(session_url, node_id);
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
    if (cmd.command == "config") {
      for (const auto& [name, value] : app::describe(cmd.settings))
        std::cout << name << " = " << value << "\n";
      return 0;
    }
    if (cmd.command == "config-reference") {
      std::cout << app::settings_reference();
      return 0;
    }
    if (cmd.command == "version") {
      std::cout << "voice-campaign-service " << app::build_version << " (commit "
                << app::build_commit << ")\n";
      return 0;
    }
    configure_logging(cmd.settings);
    if (cmd.command == "admin")
      return app::run_admin(cmd.settings, cmd.arguments, std::cout, std::cerr);
    if (cmd.command == "migrate")
      return run_migrate(cmd.settings, cmd.arguments);
    return run_serve(cmd.settings);
  } catch (const std::invalid_argument& e) {
    std::cerr << "voice-campaign-service: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "voice-campaign-service: fatal: " << e.what() << "\n";
    return 1;
  }
}
