#include "app/config.hpp"

#include "domain/duration_text.hpp"
#include "domain/outbound_address.hpp"
#include "domain/webhook_retry.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace vcs::app {

namespace {

// Reads a setting's text into the config, and shows its value as text.
struct binding {
  std::function<void(config&, const std::string&)> set;
  std::function<std::string(const config&)> show;
};

struct setting {
  const char* name; // command line: --name=value; file: name = value
  const char* env;
  const char* help;
  binding value;
};

std::size_t to_size(const std::string& name, const std::string& v) {
  std::size_t pos = 0;
  unsigned long long n = 0;
  try {
    n = std::stoull(v, &pos);
  } catch (const std::exception&) {
    pos = 0;
  }
  if (pos != v.size() || v.empty() || v.front() == '-')
    throw std::invalid_argument(name + " must be a non-negative integer, got '" + v + "'");
  return static_cast<std::size_t>(n);
}

// A field's value from text, by the field's type.
template <class T> T parse_as(const std::string& name, const std::string& v) {
  if constexpr (std::is_same_v<T, std::size_t>) {
    return to_size(name, v);
  } else if constexpr (std::is_same_v<T, int32_t>) {
    const auto n = to_size(name, v);
    if (n > static_cast<std::size_t>(std::numeric_limits<int32_t>::max()))
      throw std::invalid_argument(name + " is too large, got '" + v + "'");
    return static_cast<int32_t>(n);
  } else if constexpr (std::is_same_v<T, std::chrono::milliseconds>) {
    return std::chrono::milliseconds(to_size(name, v));
  } else if constexpr (std::is_same_v<T, bool>) {
    if (v == "true" || v == "on" || v == "1")
      return true;
    if (v == "false" || v == "off" || v == "0")
      return false;
    throw std::invalid_argument(name + " must be true or false, got '" + v + "'");
  } else {
    return v;
  }
}

template <class T> std::string shown(const T& value) {
  if constexpr (std::is_same_v<T, std::chrono::milliseconds>)
    return std::to_string(value.count());
  else if constexpr (std::is_same_v<T, bool>)
    return value ? "true" : "false";
  else if constexpr (std::is_same_v<T, std::string>)
    return value;
  else
    return std::to_string(value);
}

// A config member given as text: `config::*member`, or a member of a
// settings struct nested in the config.
template <class T> binding into(T config::*member, const char* key) {
  return {[member, key](config& c, const std::string& v) { c.*member = parse_as<T>(key, v); },
          [member](const config& c) { return shown(c.*member); }};
}

template <class S, class T> binding into(S config::*outer, T S::*inner, const char* key) {
  return {[outer, inner, key](config& c, const std::string& v) {
            (c.*outer).*inner = parse_as<T>(key, v);
          },
          [outer, inner](const config& c) { return shown((c.*outer).*inner); }};
}

// The webhook retry schedule, read and shown in its own notation.
binding retry_schedule_binding() {
  return {[](config& c, const std::string& v) {
            auto schedule = domain::parse_retry_schedule(v);
            if (!schedule)
              throw std::invalid_argument(
                  "webhook-retry-schedule must be comma-separated waits such as 5s,5m,2h,1d "
                  "(each 1 ms to 7 d, at most 50), got '" +
                  v + "'");
            c.webhooks.retry = std::move(*schedule);
          },
          [](const config& c) { return domain::format_retry_schedule(c.webhooks.retry); }};
}

// The trusted proxies' networks, read and shown as a comma-separated list.
binding trusted_proxies_binding() {
  return {
      [](config& c, const std::string& v) {
        auto networks = domain::parse_networks(v);
        if (!networks)
          throw std::invalid_argument("trusted-proxies must be comma-separated addresses or "
                                      "networks such as 10.0.0.5 or 10.1.0.0/16, got '" +
                                      v + "'");
        c.server.trusted_proxies = domain::trusted_proxies{std::move(*networks)};
      },
      [](const config& c) { return domain::format_networks(c.server.trusted_proxies.networks()); }};
}

// A retention period, read and shown as a duration ("90d"); 0 keeps rows
// forever.
binding retention_binding(std::chrono::seconds storage::retention_policy::*member) {
  return {[member](config& c, const std::string& v) {
            auto& kept = c.maintenance.retention.*member;
            if (v == "0") {
              kept = std::chrono::seconds{0};
              return;
            }
            auto d = domain::parse_duration(v, std::chrono::days{36'500});
            if (!d || *d % std::chrono::seconds{1} != std::chrono::milliseconds{0})
              throw std::invalid_argument("a retention must be 0 or whole seconds with a unit "
                                          "(s, m, h or d, e.g. 90d), at most 36500d, got '" +
                                          v + "'");
            kept = std::chrono::duration_cast<std::chrono::seconds>(*d);
          },
          [member](const config& c) {
            const auto kept = c.maintenance.retention.*member;
            return kept.count() == 0 ? std::string{"0"} : domain::format_duration(kept, true);
          }};
}

// A setting whose value is never shown (usage, describe): only whether it
// is set. A database URL may carry a password.
binding secret(binding b) {
  b.show = [show = std::move(b.show)](const config& c) {
    return show(c).empty() ? std::string{} : std::string{"(set)"};
  };
  return b;
}

const std::vector<setting>& settings() {
  static const std::vector<setting> all{
      {"database-url", "VCS_DATABASE_URL", "PostgreSQL connection (libpq URI or key=value string)",
       secret(into(&config::database_url, "database_url"))},
      {"db-pool-size", "VCS_DB_POOL_SIZE",
       "database workers for entity actors' transactions, shared fairly among tenants",
       into(&config::db_pool_size, "db_pool_size")},
      {"db-statement-timeout-ms", "VCS_DB_STATEMENT_TIMEOUT_MS",
       "PostgreSQL cancels any statement of the service running longer; below "
       "actor-timeout-ms, so database work ends before the request gives up",
       into(&config::db_statement_timeout, "db_statement_timeout")},
      {"db-lock-timeout-ms", "VCS_DB_LOCK_TIMEOUT_MS",
       "PostgreSQL fails a statement that waits longer for a row or table lock",
       into(&config::db_lock_timeout, "db_lock_timeout")},
      {"public-listen", "VCS_PUBLIC_LISTEN", "public API listener host:port",
       into(&config::server, &http::server_options::public_listen, "public_listen")},
      {"operator-listen", "VCS_OPERATOR_LISTEN", "operator API listener host:port",
       into(&config::server, &http::server_options::operator_listen, "operator_listen")},
      {"io-threads", "VCS_IO_THREADS", "HTTP event loop threads",
       into(&config::server, &http::server_options::io_threads, "io_threads")},
      {"worker-threads", "VCS_WORKER_THREADS", "actor scheduler threads; 0 = one per core",
       into(&config::worker_threads, "worker_threads")},
      {"request-workers", "VCS_REQUEST_WORKERS",
       "public API request workers, each with its own database session",
       into(&config::request_workers, "request_workers")},
      {"operator-workers", "VCS_OPERATOR_WORKERS",
       "operator API request workers, apart from the public ones",
       into(&config::operator_workers, "operator_workers")},
      {"tenant-max-workers", "VCS_TENANT_MAX_WORKERS",
       "most public request workers one tenant holds at once; 0 = all but one",
       into(&config::tenant_max_workers, "tenant_max_workers")},
      {"tenant-max-pending", "VCS_TENANT_MAX_PENDING",
       "requests of one tenant waiting or running (and, apart, its steps on the CPU pool) "
       "beyond which the next gets 429; 0 = no limit",
       into(&config::tenant_max_pending, "tenant_max_pending")},
      {"tenant-rate-limit", "VCS_TENANT_RATE_LIMIT",
       "requests a second per tenant on this node: plan (FREE 50, STARTER 200, PRO 2000, "
       "ENTERPRISE 10000; bursts of twice that), off, or a number for every tenant",
       into(&config::tenant_rate_limit, "tenant_rate_limit")},
      {"cpu-heavy-threads", "VCS_CPU_HEAVY_THREADS",
       "threads (at nice 10) that run CPU-heavy request steps (password hashing, bulk body "
       "parsing and validation) across tenants; 0 = every core but one",
       into(&config::cpu_heavy_threads, "cpu_heavy_threads")},
      {"header-limit", "VCS_HEADER_LIMIT", "maximum request header bytes",
       into(&config::server, &http::server_options::header_limit, "header_limit")},
      {"body-limit", "VCS_BODY_LIMIT", "maximum request body bytes",
       into(&config::server, &http::server_options::body_limit, "body_limit")},
      {"bulk-body-limit", "VCS_BULK_BODY_LIMIT", "maximum body bytes on bulk routes",
       into(&config::server, &http::server_options::bulk_body_limit, "bulk_body_limit")},
      {"large-body-memory", "VCS_LARGE_BODY_MEMORY",
       "bytes of bulk request bodies the node holds at once; a body that does not fit is "
       "answered 503 with Retry-After before it is read; 0 = an eighth of the machine's memory",
       into(&config::server, &http::server_options::large_body_memory, "large_body_memory")},
      {"idle-timeout-ms", "VCS_IDLE_TIMEOUT_MS",
       "keep-alive wait for the next request, headers included",
       into(&config::server, &http::server_options::idle_timeout, "idle_timeout")},
      {"read-timeout-ms", "VCS_READ_TIMEOUT_MS", "time to read a body or write a response",
       into(&config::server, &http::server_options::read_timeout, "read_timeout")},
      {"drain-delay-ms", "VCS_DRAIN_DELAY_MS",
       "after SIGTERM, how long the node answers /readyz 503 (draining) while it keeps "
       "serving, before it stops accepting; behind a load balancer, longer than its health "
       "check takes to mark a node down; 0 = stop accepting at once",
       into(&config::drain_delay, "drain_delay")},
      {"shutdown-timeout-ms", "VCS_SHUTDOWN_TIMEOUT_MS",
       "graceful shutdown wait for in-flight requests",
       into(&config::server, &http::server_options::shutdown_timeout, "shutdown_timeout")},
      {"max-connections", "VCS_MAX_CONNECTIONS",
       "open connections per listener; more are answered 503 and closed; 0 = no limit",
       into(&config::server, &http::server_options::max_connections, "max_connections")},
      {"max-connections-per-client", "VCS_MAX_CONNECTIONS_PER_CLIENT",
       "open public connections per client address (behind trusted-proxies, the client "
       "each PROXY header names); 0 = no limit",
       into(&config::server, &http::server_options::max_connections_per_client,
            "max_connections_per_client")},
      {"trusted-proxies", "VCS_TRUSTED_PROXIES",
       "load balancers, comma-separated networks (e.g. 10.0.0.5, 10.1.0.0/16), whose "
       "connections may start with a PROXY protocol v2 header and whose X-Forwarded-For is "
       "read, so limits, sign-in throttling and the access log see the real client; empty: "
       "none",
       trusted_proxies_binding()},
      {"max-queued-requests", "VCS_MAX_QUEUED_REQUESTS",
       "requests waiting for or running on a listener's workers beyond which new ones get 503; 0 = "
       "no limit",
       into(&config::max_queued_requests, "max_queued_requests")},
      {"lead-page-cache-mb", "VCS_LEAD_PAGE_CACHE_MB",
       "lead pages this node keeps rendered, served again while their campaign's leads are "
       "unchanged; 0 = off",
       into(&config::lead_page_cache_mb, "lead_page_cache_mb")},
      {"max-queue-wait-ms", "VCS_MAX_QUEUE_WAIT_MS",
       "a request that waited longer for a worker is answered 503 unrun; 0 = no limit",
       into(&config::max_queue_wait, "max_queue_wait")},
      {"readiness-saturation-ms", "VCS_READINESS_SATURATION_MS",
       "GET /readyz answers 503 once the public request workers or the database workers stay "
       "saturated this long",
       into(&config::readiness_saturation, "readiness_saturation")},
      {"actor-timeout-ms", "VCS_ACTOR_TIMEOUT_MS",
       "a request not done by then is answered 503; a write's outcome is still "
       "awaited and stored for its Idempotency-Key",
       into(&config::actor_timeout, "actor_timeout")},
      {"entity-idle-timeout-ms", "VCS_ENTITY_IDLE_TIMEOUT_MS",
       "idle time after which an entity actor retires",
       into(&config::entities, &actors::entity_settings::idle_timeout, "entity_idle_timeout")},
      {"batch-size", "VCS_BATCH_SIZE",
       "most writes an entity actor commits in one transaction; 1 turns batching off",
       into(&config::entities, &actors::entity_settings::max_batch, "batch_size")},
      {"import-chunk-size", "VCS_IMPORT_CHUNK_SIZE", "leads inserted per bulk-import transaction",
       into(&config::entities, &actors::entity_settings::import_chunk_size, "import_chunk_size")},
      {"import-stale-seconds", "VCS_IMPORT_STALE_SECONDS",
       "seconds without progress after which another node takes over an import",
       into(&config::entities, &actors::entity_settings::import_stale_seconds,
            "import_stale_seconds")},
      {"import-sweep-interval-ms", "VCS_IMPORT_SWEEP_INTERVAL_MS",
       "how often unfinished imports are looked for",
       into(&config::import_sweep_interval, "import_sweep_interval")},
      {"billing-sweep-interval-ms", "VCS_BILLING_SWEEP_INTERVAL_MS",
       "how often the billing sweep runs",
       into(&config::billing_sweep_interval, "billing_sweep_interval")},
      {"billing-payment-due-days", "VCS_BILLING_PAYMENT_DUE_DAYS",
       "days after its period starts that a cycle request the sweep issues is due",
       into(&config::entities, &actors::entity_settings::payment_due_days,
            "billing_payment_due_days")},
      {"billing-grace-days", "VCS_BILLING_GRACE_DAYS",
       "days after the due date that a cycle request's grace period ends",
       into(&config::entities, &actors::entity_settings::grace_days, "billing_grace_days")},
      {"counter-fold-interval-ms", "VCS_COUNTER_FOLD_INTERVAL_MS",
       "how often the lead counters' pending changes are folded in (reads add the rest)",
       into(&config::maintenance, &actors::maintenance_settings::fold_interval,
            "counter_fold_interval")},
      {"retention-interval-ms", "VCS_RETENTION_INTERVAL_MS",
       "how often rows past their retention are looked for",
       into(&config::maintenance, &actors::maintenance_settings::retention_interval,
            "retention_interval")},
      {"calls-retention", "VCS_CALLS_RETENTION",
       "how long an ended call (its minutes recorded) is kept, e.g. 90d; 0 = forever",
       retention_binding(&storage::retention_policy::calls)},
      {"deliveries-retention", "VCS_DELIVERIES_RETENTION",
       "how long a delivered or dead webhook delivery is kept, e.g. 30d; 0 = forever",
       retention_binding(&storage::retention_policy::deliveries)},
      {"events-retention", "VCS_EVENTS_RETENTION",
       "how long an event stays in the events feed, e.g. 30d; 0 = forever",
       retention_binding(&storage::retention_policy::events)},
      {"imports-retention", "VCS_IMPORTS_RETENTION",
       "how long a finished lead import and its rejections are kept, e.g. 30d; 0 = forever",
       retention_binding(&storage::retention_policy::imports)},
      {"dial-interval-ms", "VCS_DIAL_INTERVAL_MS",
       "how often due campaigns are woken for a dial pass",
       into(&config::dial, &actors::dial_scheduler_settings::interval, "dial_interval")},
      {"dial-batch", "VCS_DIAL_BATCH", "most calls one dial pass of a campaign places",
       into(&config::entities, &actors::entity_settings::dial_batch, "dial_batch")},
      {"dial-idle-poll-seconds", "VCS_DIAL_IDLE_POLL_SECONDS",
       "when no lead of a running campaign is callable, seconds until it is looked at again",
       into(&config::entities, &actors::entity_settings::dial_idle_poll_seconds,
            "dial_idle_poll_seconds")},
      {"dial-lease-seconds", "VCS_DIAL_LEASE_SECONDS",
       "seconds a node holds a campaign it woke before another node may",
       into(&config::dial, &actors::dial_scheduler_settings::lease_seconds, "dial_lease_seconds")},
      {"dial-lost-call-seconds", "VCS_DIAL_LOST_CALL_SECONDS",
       "an open call older than this is ended as lost, freeing its slot",
       into(&config::dial, &actors::dial_scheduler_settings::lost_call_seconds,
            "dial_lost_call_seconds")},
      {"simulated-outcomes", "VCS_SIMULATED_OUTCOMES", "simulated provider outcome weights",
       into(&config::simulated_outcomes, "simulated_outcomes")},
      {"simulated-ring-ms", "VCS_SIMULATED_RING_MS", "simulated provider: time until a call rings",
       into(&config::simulated_ring, "simulated_ring")},
      {"simulated-call-ms", "VCS_SIMULATED_CALL_MS",
       "simulated provider: time from ringing to the end of a call",
       into(&config::simulated_call, "simulated_call")},
      {"simulated-talk-seconds", "VCS_SIMULATED_TALK_SECONDS",
       "simulated provider: billed duration of an answered call",
       into(&config::simulated_talk_seconds, "simulated_talk_seconds")},
      {"voice-mode", "VCS_VOICE_MODE",
       "simulated (no real calls) or live (configurations call through their providers' APIs)",
       into(&config::voice_mode, "voice_mode")},
      {"provider-a-base-url", "VCS_PROVIDER_A_BASE_URL", "provider_a's API in live mode",
       into(&config::provider_a_base_url, "provider_a_base_url")},
      {"provider-b-base-url", "VCS_PROVIDER_B_BASE_URL", "provider_b's API in live mode",
       into(&config::provider_b_base_url, "provider_b_base_url")},
      {"provider-c-base-url", "VCS_PROVIDER_C_BASE_URL", "provider_c's API in live mode",
       into(&config::provider_c_base_url, "provider_c_base_url")},
      {"provider-d-base-url", "VCS_PROVIDER_D_BASE_URL", "provider_d's API in live mode",
       into(&config::provider_d_base_url, "provider_d_base_url")},
      {"callback-base-url", "VCS_CALLBACK_BASE_URL",
       "this service's public URL as live providers reach it for call-status callbacks "
       "(required in live mode)",
       into(&config::callback_base_url, "callback_base_url")},
      {"public-url", "VCS_PUBLIC_URL",
       "this service as people reach it, for the console's set-up links (e.g. "
       "https://voice.example.com); empty: http:// and the public listener's address",
       into(&config::public_url, "public_url")},
      {"event-stream-lifetime-ms", "VCS_EVENT_STREAM_LIFETIME_MS",
       "how long an event stream lasts at most; then it ends and its client reconnects from "
       "its Last-Event-ID, its credential read again",
       into(&config::event_stream_lifetime, "event_stream_lifetime")},
      {"webhook-interval-ms", "VCS_WEBHOOK_INTERVAL_MS", "how often the webhook outbox is polled",
       into(&config::webhooks, &actors::webhook_settings::interval, "webhook_interval")},
      {"webhook-retry-schedule", "VCS_WEBHOOK_RETRY_SCHEDULE",
       "waits between a webhook's attempts (ms, s, m, h or d, comma-separated, each "
       "stretched by up to 20% jitter); the delivery is dead when they are spent",
       retry_schedule_binding()},
      {"webhook-tenant-in-flight", "VCS_WEBHOOK_TENANT_IN_FLIGHT",
       "webhooks of one tenant being sent at once by this node (of 64 in all)",
       into(&config::webhooks, &actors::webhook_settings::per_tenant, "webhook_tenant_in_flight")},
      {"webhook-timeout-ms", "VCS_WEBHOOK_TIMEOUT_MS", "time for a webhook receiver to answer",
       into(&config::webhooks, &actors::webhook_settings::timeout, "webhook_timeout")},
      {"outbound-allow", "VCS_OUTBOUND_ALLOW",
       "internal networks webhooks and provider APIs may reach anyway, comma-separated "
       "(e.g. 10.1.2.0/24, fd00::/8 for an on-premises receiver); empty: none",
       into(&config::outbound_allow, "outbound_allow")},
      {"allow-test-clock", "VCS_ALLOW_TEST_CLOCK",
       "true: the operator's billing sweep and dial round accept a `now` other than the "
       "clock, acting on every tenant as of that instant (for tests only; default false)",
       into(&config::allow_test_clock, "allow_test_clock")},
      {"operator-token", "VCS_OPERATOR_TOKEN", "bearer token of the operator listener (required)",
       secret(into(&config::operator_token, "operator_token"))},
      {"operator-url", "VCS_OPERATOR_URL",
       "admin: the operator API to call, http://host:port; empty: operator-listen",
       into(&config::operator_url, "operator_url")},
      {"secret-key", "VCS_SECRET_KEY",
       "64 hex digits: the key that encrypts stored credentials (required)",
       secret(into(&config::secret_key, "secret_key"))},
      {"log-level", "VCS_LOG_LEVEL", "trace, debug, info, warn, error or off",
       into(&config::log_level, "log_level")},
      {"log-format", "VCS_LOG_FORMAT",
       "text, or json: one object per line (time, level, msg; access lines add method, route, "
       "status, latency_us, request_id, tenant_id)",
       into(&config::log_format, "log_format")},
  };
  return all;
}

const setting* find_setting(const std::string& name) {
  for (const auto& s : settings())
    if (name == s.name)
      return &s;
  return nullptr;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos)
    return {};
  auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

void apply_file(config& c, const std::string& path) {
  std::ifstream in{path};
  if (!in)
    throw std::invalid_argument("cannot read configuration file " + path);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    line = trim(line);
    if (line.empty() || line.front() == '#')
      continue;
    auto eq = line.find('=');
    auto name = trim(line.substr(0, eq));
    auto* s = eq == std::string::npos ? nullptr : find_setting(name);
    if (!s)
      throw std::invalid_argument(path + ":" + std::to_string(number) + ": unknown setting '" +
                                  name + "'");
    s->value.set(c, trim(line.substr(eq + 1)));
  }
}

bool is_hex64(const std::string& s) {
  if (s.size() != 64)
    return false;
  for (char ch : s)
    if (!std::isxdigit(static_cast<unsigned char>(ch)))
      return false;
  return true;
}

} // namespace

parsed_command parse_command_line(int argc, char** argv) {
  parsed_command out;
  std::vector<std::pair<const setting*, std::string>> overrides;
  std::string file;
  if (const char* f = std::getenv("VCS_CONFIG"))
    file = f;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    const bool admin = out.command == "admin";
    if (!admin && (arg == "--help" || arg == "-h" || arg == "help")) {
      out.command = "help";
      continue;
    }
    if (out.command == "migrate" && arg == "--status") {
      out.arguments.push_back(arg);
      continue;
    }
    if (!admin && (arg == "--version" || arg == "version")) {
      out.command = "version";
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      if (admin)
        out.arguments.push_back(arg);
      else if (!out.command.empty())
        throw std::invalid_argument("unexpected argument '" + arg + "'");
      else
        out.command = arg;
      continue;
    }
    auto eq = arg.find('=');
    auto name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    // Settings apply to every command; admin has options of its own too.
    if (admin && name != "config" && !find_setting(name)) {
      out.arguments.push_back(arg);
      continue;
    }
    if (eq == std::string::npos)
      throw std::invalid_argument("expected --name=value, got '" + arg + "'");
    auto value = arg.substr(eq + 1);
    if (name == "config") {
      file = value;
      continue;
    }
    auto* s = find_setting(name);
    if (!s)
      throw std::invalid_argument("unknown option --" + name + " (see --help)");
    overrides.emplace_back(s, value);
  }
  if (out.command.empty())
    out.command = "help";
  if (out.command != "serve" && out.command != "migrate" && out.command != "admin" &&
      out.command != "help" && out.command != "version" && out.command != "config" &&
      out.command != "config-reference")
    throw std::invalid_argument("unknown command '" + out.command + "' (see --help)");
  if (!file.empty())
    apply_file(out.settings, file);
  for (const auto& s : settings())
    if (const char* v = std::getenv(s.env))
      s.value.set(out.settings, v);
  for (const auto& [s, v] : overrides)
    s->value.set(out.settings, v);
  return out;
}

void require_database(const config& c) {
  if (c.database_url.empty())
    throw std::invalid_argument("no database: set VCS_DATABASE_URL or --database-url");
}

std::optional<tenant_rate_setting> read_tenant_rate_limit(std::string_view text) {
  if (text == "plan")
    return tenant_rate_setting{};
  if (text == "off")
    return tenant_rate_setting{false, std::nullopt};
  int32_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size() || value < 1 || value > 1'000'000)
    return std::nullopt;
  return tenant_rate_setting{true, domain::request_rate{value, 2 * value}};
}

void require_serve_settings(const config& c) {
  require_database(c);
  if (c.operator_token.empty())
    throw std::invalid_argument("no operator token: set VCS_OPERATOR_TOKEN or --operator-token");
  if (c.secret_key.empty())
    throw std::invalid_argument("no secret key: set VCS_SECRET_KEY or --secret-key "
                                "(64 hex digits)");
  if (!is_hex64(c.secret_key))
    throw std::invalid_argument("the secret key must be exactly 64 hex digits");
  if (c.import_sweep_interval.count() == 0 || c.billing_sweep_interval.count() == 0 ||
      c.dial.interval.count() == 0 || c.webhooks.interval.count() == 0 ||
      c.maintenance.fold_interval.count() == 0 || c.maintenance.retention_interval.count() == 0)
    throw std::invalid_argument("sweep intervals must be at least 1 ms");
  if (c.webhooks.per_tenant < 1)
    throw std::invalid_argument("webhook-tenant-in-flight must be at least 1");
  if (c.voice_mode != "simulated" && c.voice_mode != "live")
    throw std::invalid_argument("voice-mode must be simulated or live");
  if (c.voice_mode == "live" && c.callback_base_url.empty())
    throw std::invalid_argument("voice-mode live needs callback-base-url (this service's public "
                                "URL, for the providers' call-status callbacks)");
  // A chunk of no rows would never finish an import.
  if (c.entities.import_chunk_size < 1)
    throw std::invalid_argument("import-chunk-size must be at least 1");
  if (c.entities.dial_batch == 0 || c.dial.lease_seconds == 0)
    throw std::invalid_argument("dial-batch and dial-lease-seconds must be at least 1");
  if (!read_tenant_rate_limit(c.tenant_rate_limit))
    throw std::invalid_argument("tenant-rate-limit must be plan, off or a number of requests a "
                                "second from 1 to 1000000");
  if (!domain::outbound_policy::parse(c.outbound_allow))
    throw std::invalid_argument("outbound-allow must be comma-separated networks such as "
                                "10.1.2.0/24 or fd00::/8");
}

std::string effective_public_url(const config& c) {
  if (!c.public_url.empty())
    return c.public_url.ends_with('/') ? c.public_url.substr(0, c.public_url.size() - 1)
                                       : c.public_url;
  const auto& listen = c.server.public_listen;
  const auto colon = listen.rfind(':');
  auto host = listen.substr(0, colon);
  if (host.empty() || host == "0.0.0.0" || host == "[::]")
    host = "localhost";
  return "http://" + host + listen.substr(colon);
}

std::string usage() {
  std::ostringstream out;
  out << "Usage: voice-campaign-service <command> [--config=FILE] [--name=value ...]\n\n"
         "Commands:\n"
         "  serve     apply pending migrations, then serve the public and operator APIs\n"
         "  migrate   apply pending database migrations and exit; with --status, list them\n"
         "            instead (exit 0: up to date, 3: some pending, 4: database is newer)\n"
         "  admin     call a running node's operator API (see admin --help)\n"
         "  config    print the effective settings (secrets only as set or not) and exit\n"
         "  config-reference  print every setting as a Markdown table (docs/ops/settings.md)\n"
         "  --help    show this text\n"
         "  --version the version and commit this binary was built from\n\n"
         "Settings (file `name = value`, environment variable, or --name=value; later wins):\n"
         "  --config=FILE  VCS_CONFIG  configuration file to read first\n";
  const config defaults;
  for (const auto& s : settings()) {
    out << "  --" << s.name << "  " << s.env << "\n      " << s.help;
    if (auto shown = s.value.show(defaults); !shown.empty())
      out << " (" << shown << ")";
    out << "\n";
  }
  return out.str();
}

std::string settings_reference() {
  // A table cell: '|' would end it.
  auto cell = [](std::string_view text) {
    std::string out;
    for (char ch : text) {
      if (ch == '|')
        out += '\\';
      out += ch;
    }
    return out;
  };
  std::ostringstream out;
  out << "# Settings reference\n\n"
         "Every setting of the service, as `voice-campaign-service config-reference` prints\n"
         "it from the binary's own table (the tests fail when this page differs). Each one\n"
         "can be set in the configuration file (`name = value`, the file named by\n"
         "`--config=FILE` or `VCS_CONFIG`), by its environment variable, or on the command\n"
         "line as `--name=value`; a later source wins. `voice-campaign-service config`\n"
         "prints the values a node would use, secrets only as set or not.\n\n"
         "| Setting | Environment variable | Default | What it does |\n"
         "|---|---|---|---|\n";
  const config defaults;
  for (const auto& s : settings()) {
    const auto shown = s.value.show(defaults);
    out << "| `" << s.name << "` | `" << s.env << "` | "
        << (shown.empty() ? std::string{"(none)"} : "`" + cell(shown) + "`") << " | "
        << cell(s.help) << " |\n";
  }
  return out.str();
}

std::vector<std::pair<std::string, std::string>> describe(const config& c) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& s : settings())
    out.emplace_back(s.name, s.value.show(c));
  return out;
}

} // namespace vcs::app
