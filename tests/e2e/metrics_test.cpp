// GET /metrics: the families docs/ops/metrics.txt lists (and that the
// alert rules and dashboard use), each moving when its cause happens.

#include "domain/global_id.hpp"
#include "eventually.hpp"
#include "http_client.hpp"
#include "json_helpers.hpp"
#include "metrics_text.hpp"
#include "service_process.hpp"
#include "storage/database.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

namespace vcs::test {
namespace {

// The families a scrape declares (its # TYPE lines).
std::set<std::string> families(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in{text};
  for (std::string line; std::getline(in, line);)
    if (line.rfind("# TYPE ", 0) == 0)
      out.insert(line.substr(7, line.find(' ', 7) - 7));
  return out;
}

std::set<std::string> documented_families() {
  std::ifstream in{std::string{VCS_SOURCE_DIR} + "/docs/ops/metrics.txt"};
  std::set<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#')
      out.insert(line);
  return out;
}

class metrics_test : public ::testing::Test {
protected:
  // Background work slowed to a crawl, so rows written here stay as they
  // are while the node is scraped.
  service_process node{{{"VCS_REQUEST_WORKERS", "3"},
                        {"VCS_DB_POOL_SIZE", "3"},
                        {"VCS_BILLING_SWEEP_INTERVAL_MS", "3600000"},
                        {"VCS_TENANT_RATE_LIMIT", "2"},
                        {"VCS_WEBHOOK_INTERVAL_MS", "3600000"},
                        {"VCS_IMPORT_SWEEP_INTERVAL_MS", "3600000"},
                        {"VCS_DIAL_INTERVAL_MS", "3600000"},
                        {"VCS_COUNTER_FOLD_INTERVAL_MS", "3600000"},
                        {"VCS_RETENTION_INTERVAL_MS", "3600000"}}};
  http_client op{"127.0.0.1", node.operator_port()};
  http_client pub{"127.0.0.1", node.public_port()};

  std::string scrape() {
    auto r = op.get("/metrics", bearer(node.operator_token()));
    EXPECT_EQ(r.status, 200u) << r.body;
    return r.body;
  }

  // A busy and a queued gauge as read while `senders` requests (send(i)
  // answers the i-th one's status) wait on `table`, locked by the test until
  // the gauges read `expected` or 3 s pass; then the requests' statuses.
  struct held_reading {
    double busy = 0;
    double queued = 0;
    std::vector<unsigned> statuses;
  };
  held_reading while_locked(const std::string& table, std::size_t senders,
                            const std::function<unsigned(std::size_t)>& send,
                            const std::string& busy, const std::string& queued,
                            std::pair<double, double> expected) {
    held_reading out;
    out.statuses.assign(senders, 0);
    auto holder = storage::open_session(database_url());
    std::optional<soci::transaction> hold{std::in_place, *holder};
    *holder << "LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE";
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < senders; ++i)
      threads.emplace_back([&, i] { out.statuses[i] = send(i); });
    eventually(
        [&] {
          auto m = scrape();
          out.busy = metric_value(m, busy);
          out.queued = metric_value(m, queued);
          return out.busy == expected.first && out.queued == expected.second;
        },
        std::chrono::seconds(3));
    hold->rollback();
    hold.reset();
    for (auto& t : threads)
      t.join();
    return out;
  }
};

TEST_F(metrics_test, exposes_exactly_the_documented_families) {
  const auto text = scrape();
  EXPECT_EQ(families(text), documented_families()) << text;
  EXPECT_EQ(metric_value(text, "vcs_request_workers{listener=\"public\"}"), 3);
  EXPECT_EQ(metric_value(text, "vcs_backlog_read_success"), 1);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      text, m, std::regex{R"re(vcs_build_info\{version="([^"]+)",commit="([^"]+)"\} 1)re"}))
      << text;
  EXPECT_EQ(m[1].str(), "0.1.0");
  EXPECT_TRUE(std::regex_match(m[2].str(), std::regex{"[0-9a-f]{12}(-dirty)?|unknown"})) << m[2];
  EXPECT_GT(metric_value(text, "process_resident_memory_bytes"), 1e6);
  EXPECT_GT(metric_value(text, "process_open_fds"), 3);
  EXPECT_GE(metric_value(text, "process_max_fds"), metric_value(text, "process_open_fds"));
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_NEAR(metric_value(text, "process_start_time_seconds"), now, 120);
}

TEST_F(metrics_test, refusals_count_under_their_cause) {
  const std::string headers = "vcs_http_refused_total{status=\"431\",cause=\"headers_too_large\"}";
  const std::string malformed =
      "vcs_http_refused_total{status=\"400\",cause=\"malformed_request\"}";
  const std::string rate = "vcs_http_refused_total{status=\"429\",cause=\"tenant_rate_limit\"}";
  const auto before = scrape();
  EXPECT_EQ(metric_value(before, headers), -1) << "no refusal yet";

  header_list padding;
  for (int i = 0; i < 4; ++i)
    padding.emplace_back("X-Padding-" + std::to_string(i), std::string(8 * 1024, 'h'));
  http_client big{"127.0.0.1", node.public_port()};
  EXPECT_EQ(big.get("/healthz", padding).status, 431u);
  http_client bad{"127.0.0.1", node.public_port()};
  bad.send_raw("GET /a b c d\r\n\r\n");
  EXPECT_EQ(bad.read_response().status, 400u);

  auto t = op.request("POST", "/admin/v1/tenants", R"({"name":"Metrics","plan":"PRO"})",
                      bearer(node.operator_token()));
  ASSERT_EQ(t.status, 201u) << t.body;
  const auto key = str(parse(t.body)["api_key"], "key");
  int limited = 0;
  for (int i = 0; i < 12; ++i)
    limited += pub.request("GET", "/api/v2/voice-campaigns", {}, bearer(key)).status == 429u;
  ASSERT_GT(limited, 0) << "2 requests a second allowed";

  const auto after = scrape();
  EXPECT_EQ(metric_value(after, headers), 1);
  EXPECT_EQ(metric_value(after, malformed), 1);
  EXPECT_EQ(metric_value(after, rate), limited);
  EXPECT_GE(metric_value(after, "vcs_request_queue_wait_seconds_count{listener=\"public\"}"), 12);
}

TEST_F(metrics_test, the_clusters_queues_are_read_at_each_scrape) {
  auto t = op.request("POST", "/admin/v1/tenants", R"({"name":"Queues","plan":"PRO"})",
                      bearer(node.operator_token()));
  ASSERT_EQ(t.status, 201u) << t.body;
  auto doc = parse(t.body);
  const auto key = str(doc["api_key"], "key");
  const auto tenant = *domain::decode_global_id(domain::entity::tenant, str(doc, "tenant_id"));
  auto c = pub.request("POST", "/api/v2/voice-campaigns", R"({"name":"Queues"})", bearer(key));
  ASSERT_EQ(c.status, 201u) << c.body;
  const auto campaign = *domain::decode_global_id(domain::entity::campaign,
                                                  str(parse(c.body)["data"], "campaign_id"));

  auto active = [&](bool on) {
    auto r = op.request("PATCH", "/admin/v1/tenants/" + str(doc, "tenant_id"),
                        on ? R"({"active":true})" : R"({"active":false})",
                        bearer(node.operator_token()));
    ASSERT_EQ(r.status, 200u) << r.body;
  };
  const auto before = scrape();
  auto sql = storage::open_session(database_url());
  long long tenant_id = tenant, campaign_id = campaign, job = 0;
  // A delivery due ten minutes ago that no node's sender may take: written
  // while its tenant is switched off, then locked (senders skip locked
  // rows) before the tenant is switched on again.
  active(false);
  *sql << "INSERT INTO webhook_deliveries (tenant_id, event_id, event_type, url, payload, "
          "next_attempt_at) VALUES (:t, 'evt_metrics_test', 'call.completed', "
          "'https://example.com/hook', '{}', now() - interval '10 minutes')",
      soci::use(tenant_id);
  auto lock = storage::open_session(database_url());
  soci::transaction held{*lock};
  *lock << "SELECT 1 FROM webhook_deliveries WHERE event_id = 'evt_metrics_test' FOR UPDATE";
  active(true);
  // An import of 7 rows waiting (claimed by a node that is not here, so
  // the other nodes leave it for import-stale-seconds), and an open call.
  *sql << "INSERT INTO lead_import_jobs (tenant_id, campaign_id, accepted, claimed_by, "
          "claimed_at) VALUES (:t, :c, 7, 'metrics-test', now()) RETURNING id",
      soci::use(tenant_id), soci::use(campaign_id), soci::into(job);
  *sql << "INSERT INTO lead_import_chunks (job_id, first_index, row_count, phone_numbers, "
          "first_names, last_names, emails, custom_fields, invalid, invalid_reasons, row_indexes) "
          "VALUES (:j, 0, 7, '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}')",
      soci::use(job);
  *sql << "INSERT INTO calls (tenant_id, campaign_id, lead_id, phone_number, attempt, node_id) "
          "VALUES (:t, :c, 1, '+14155550100', 1, 'metrics-test')",
      soci::use(tenant_id), soci::use(campaign_id);
  const auto after = scrape();
  held.rollback();

  auto delta = [&](const std::string& series) {
    return metric_value(after, series) - metric_value(before, series);
  };
  EXPECT_EQ(delta("vcs_webhook_outbox_pending"), 1);
  EXPECT_GE(metric_value(after, "vcs_webhook_outbox_due_age_seconds"), 600);
  EXPECT_EQ(delta("vcs_import_backlog_jobs{status=\"queued\"}"), 1);
  EXPECT_EQ(delta("vcs_import_backlog_leads"), 7);
  EXPECT_EQ(delta("vcs_dialer_calls_active"), 1);

  *sql << "DELETE FROM tenants WHERE id = :t", soci::use(tenant_id);
  const auto cleaned = scrape();
  EXPECT_EQ(metric_value(cleaned, "vcs_webhook_outbox_pending"),
            metric_value(before, "vcs_webhook_outbox_pending"));
  EXPECT_EQ(metric_value(cleaned, "vcs_dialer_calls_active"),
            metric_value(before, "vcs_dialer_calls_active"));
}

TEST_F(metrics_test, busy_request_workers_and_their_queue_are_shown) {
  std::vector<std::string> keys;
  for (const char* name : {"Busy A", "Busy B"}) {
    auto t = op.request("POST", "/admin/v1/tenants",
                        std::string{R"({"plan":"PRO","name":")"} + name + "\"}",
                        bearer(node.operator_token()));
    ASSERT_EQ(t.status, 201u) << t.body;
    keys.push_back(str(parse(t.body)["api_key"], "key"));
  }
  const std::string busy = "vcs_request_workers_busy{listener=\"public\"}";
  const std::string queued = "vcs_request_queue_depth{listener=\"public\"}";
  EXPECT_EQ(metric_value(scrape(), busy), 0);
  // Listing clients reads the clients table (which no scrape reads): with
  // it locked, each list holds its worker until the lock goes. Two requests
  // per key: each key may use two of the three workers, so three run and
  // one waits.
  auto seen = while_locked("clients", 4,
                           [&](std::size_t i) {
                             http_client c{"127.0.0.1", node.public_port()};
                             return c.get("/api/v2/clients", bearer(keys[i % 2])).status;
                           },
                           busy, queued, {3, 1});
  EXPECT_EQ(seen.busy, 3);
  EXPECT_EQ(seen.queued, 1);
  EXPECT_EQ(seen.statuses, (std::vector<unsigned>(4, 200u)));
  EXPECT_TRUE(eventually([&] {
    auto m = scrape();
    return metric_value(m, busy) == 0 && metric_value(m, queued) == 0;
  }));
}

TEST_F(metrics_test, busy_database_workers_and_their_queue_are_shown) {
  // Five tenants' actors each send one write to the three database workers.
  std::vector<std::string> keys;
  for (int i = 0; i < 5; ++i) {
    auto t = op.request("POST", "/admin/v1/tenants",
                        R"({"plan":"PRO","name":"Writer )" + std::to_string(i) + "\"}",
                        bearer(node.operator_token()));
    ASSERT_EQ(t.status, 201u) << t.body;
    keys.push_back(str(parse(t.body)["api_key"], "key"));
  }
  EXPECT_EQ(metric_value(scrape(), "vcs_db_workers_busy"), 0);
  // A campaign's creation counts the tenant's campaigns first: with the
  // table locked, each write holds its database worker.
  auto seen = while_locked(
      "campaigns", keys.size(),
      [&](std::size_t i) {
        http_client c{"127.0.0.1", node.public_port()};
        return c.request("POST", "/api/v2/voice-campaigns", R"({"name":"held"})", bearer(keys[i]))
            .status;
      },
      "vcs_db_workers_busy", "vcs_db_queue_depth", {3, 2});
  EXPECT_EQ(seen.busy, 3);
  EXPECT_EQ(seen.queued, 2);
  EXPECT_EQ(seen.statuses, (std::vector<unsigned>(keys.size(), 201u)));
  EXPECT_TRUE(eventually([&] {
    auto m = scrape();
    return metric_value(m, "vcs_db_workers_busy") == 0 &&
           metric_value(m, "vcs_db_queue_depth") == 0;
  }));
}

TEST_F(metrics_test, database_workers_and_background_work_are_counted) {
  // The node sweeps once as it starts (then hourly here): that one first.
  const std::string swept = "vcs_billing_sweeps_total{outcome=\"done\"}";
  for (int i = 0; i < 100 && metric_value(scrape(), swept) < 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto before = scrape();
  ASSERT_EQ(metric_value(before, swept), 1);
  EXPECT_EQ(metric_value(before, "vcs_db_workers"), 3) << "db-pool-size";
  auto sweep = op.request("POST", "/admin/v1/billing/sweep", {}, bearer(node.operator_token()));
  ASSERT_EQ(sweep.status, 200u) << sweep.body;
  // Every session of this database is cut: the node's next uses reconnect.
  auto sql = storage::open_session(database_url());
  *sql << "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
          "WHERE datname = current_database() AND pid <> pg_backend_pid()";
  // The first use of each cut connection answers 503 (retry), the next
  // reconnects.
  auto until_created = [](auto send) {
    auto r = send();
    for (int i = 0; i < 20 && r.status != 201u; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      r = send();
    }
    return r;
  };
  auto t = until_created([&] {
    return op.request("POST", "/admin/v1/tenants", R"({"name":"Work","plan":"PRO"})",
                      bearer(node.operator_token()));
  });
  ASSERT_EQ(t.status, 201u) << t.body;
  const auto key = str(parse(t.body)["api_key"], "key");
  auto c = until_created([&] {
    return pub.request("POST", "/api/v2/voice-campaigns", R"({"name":"Work"})", bearer(key));
  });
  ASSERT_EQ(c.status, 201u) << c.body;
  const auto after = scrape();
  auto delta = [&](const std::string& series) {
    return metric_value(after, series) - metric_value(before, series);
  };
  EXPECT_EQ(delta(swept), 1);
  EXPECT_GE(delta("vcs_db_reconnects_total"), 1);
  EXPECT_GE(delta("vcs_db_queue_wait_seconds_count"), 1) << "the campaign's write ran on the pool";
  EXPECT_GE(metric_value(after, "vcs_db_queue_wait_seconds_sum"), 0);
}

} // namespace
} // namespace vcs::test
