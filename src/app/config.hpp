#pragma once

#include "actors/dial_settings.hpp"
#include "actors/entity_settings.hpp"
#include "actors/maintenance_settings.hpp"
#include "actors/webhook_settings.hpp"
#include "domain/plan.hpp"
#include "domain/request_deadlines.hpp"
#include "http/server/server_options.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vcs::app {

// Every setting of the service, each default written once: here, or in
// the component's settings struct nested here. Each one can come from the
// configuration file, an environment variable or the command line (later
// wins); see usage() and config/voice-campaign-service.conf.
struct config {
  std::string database_url;
  std::size_t db_pool_size = 4;
  std::chrono::milliseconds db_statement_timeout{20'000};
  std::chrono::milliseconds db_lock_timeout{5'000};
  http::server_options server;
  std::size_t worker_threads = 0; // CAF scheduler threads; 0 = one per core
  std::size_t request_workers = 8;
  std::size_t operator_workers = 2;
  std::size_t tenant_max_workers = 0; // 0: all request workers but one
  std::size_t tenant_max_pending = 256;
  std::string tenant_rate_limit = "plan";
  std::size_t cpu_heavy_threads = 0; // 0: every core but one
  std::size_t max_queued_requests = 1'024;
  std::size_t lead_page_cache_mb = 64;
  std::chrono::milliseconds max_queue_wait{5'000};
  std::chrono::milliseconds readiness_saturation{2'000};
  // After SIGTERM: how long the node reports not ready while it keeps
  // serving, so load balancers take it out before it stops accepting.
  std::chrono::milliseconds drain_delay{0};
  std::chrono::milliseconds actor_timeout{30'000};
  actors::entity_settings entities;
  std::chrono::milliseconds import_sweep_interval{10'000};
  std::chrono::milliseconds billing_sweep_interval{60'000};
  actors::dial_scheduler_settings dial;
  actors::maintenance_settings maintenance;
  std::string simulated_outcomes =
      "human:50,voicemail:20,no_answer:20,busy:5,failed:3,invalid_number:2";
  std::chrono::milliseconds simulated_ring{2'000};
  std::chrono::milliseconds simulated_call{5'000};
  std::size_t simulated_talk_seconds = 60;
  std::string voice_mode = "simulated";
  std::string provider_a_base_url = "https://api.vapi.ai";
  std::string provider_b_base_url = "https://api.retellai.com";
  std::string provider_c_base_url = "https://api.elevenlabs.io";
  std::string provider_d_base_url = "https://api.bland.ai";
  std::string callback_base_url;
  // This service as people reach it (set-up links); empty: the public
  // listener's address (effective_public_url).
  std::string public_url;
  // How long an event stream lasts at most before its client reconnects.
  std::chrono::milliseconds event_stream_lifetime{3'600'000};
  actors::webhook_settings webhooks;
  std::string outbound_allow;
  // Whether operator routes may act as of a `now` other than the clock
  // (allow-test-clock): a setting for tests, never for production.
  bool allow_test_clock = false;
  std::string operator_token;
  // Where `admin` calls the operator API (http://host:port); empty: the
  // operator listener's address.
  std::string operator_url;
  std::string secret_key;
  std::string log_level = "info";
  // text (time, level, message) or json (one object per line).
  std::string log_format = "text";

  // Every bound of a request's work, from actor-timeout-ms.
  domain::request_deadlines deadlines() const { return domain::deadlines_for(actor_timeout); }
};

struct parsed_command {
  std::string command; // serve, migrate, admin, help
  // admin: its words and its own options, in order.
  std::vector<std::string> arguments;
  config settings;
};

// Reads defaults, then the file named by --config / VCS_CONFIG, then VCS_*
// variables, then --name=value arguments. Throws std::invalid_argument with a
// message fit for the user.
parsed_command parse_command_line(int argc, char** argv);

// Checks what `serve` needs (database URL, operator token, a 64-hex secret
// key); throws std::invalid_argument naming what is missing.
void require_serve_settings(const config& c);
void require_database(const config& c);

// The tenant-rate-limit setting read: "off", "plan" (each tenant its plan's
// rate) or one rate for every tenant; nullopt when it is none of these.
struct tenant_rate_setting {
  bool enabled = true;
  std::optional<domain::request_rate> every_tenant;
};
std::optional<tenant_rate_setting> read_tenant_rate_limit(std::string_view text);

// public-url, or http:// and public-listen (localhost for a wildcard
// address).
std::string effective_public_url(const config& c);

// The --help text: commands and every setting with its variable and default.
std::string usage();

// Every setting with its variable, default and help as a Markdown page
// (docs/ops/settings.md is this output).
std::string settings_reference();

// Every setting's name and value as the configuration file spells it.
std::vector<std::pair<std::string, std::string>> describe(const config& c);

} // namespace vcs::app
