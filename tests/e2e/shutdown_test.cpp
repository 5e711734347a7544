// Graceful shutdown: SIGTERM stops accepting, lets an in-flight request
// finish, closes idle connections and exits 0; with a drain delay it first
// reports not ready while it keeps serving; the imports and dial passes it
// held are handed on to the other nodes.

#include "domain/global_id.hpp"
#include "eventually.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

#include <csignal>
#include <memory>
#include <thread>

namespace vcs::test {
namespace {

TEST(shutdown_test, sigterm_completes_in_flight_request_then_exits_zero) {
  service_process own;
  http_client idle{"127.0.0.1", own.public_port()};
  ASSERT_EQ(idle.get("/healthz").status, 200u);

  // Half a request: headers and part of the body are on the wire.
  std::string body = R"({"name":"drained tenant","plan":"PRO"})";
  http_client in_flight{"127.0.0.1", own.operator_port()};
  in_flight.send_raw("POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                     own.operator_token() +
                     "\r\nContent-Type: application/json\r\nContent-Length: " +
                     std::to_string(body.size()) + "\r\n\r\n" + body.substr(0, 10));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  own.send_signal(SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(own.wait_exit(std::chrono::milliseconds(0)), -1) << "exited before the request ended";

  // The idle keep-alive connection is closed by the server, and no new
  // connection is accepted.
  EXPECT_TRUE(idle.closed_by_peer());
  EXPECT_THROW(http_client("127.0.0.1", own.public_port()), std::exception);

  in_flight.send_raw(body.substr(10));
  http_response r;
  try {
    r = in_flight.read_response();
  } catch (const std::exception& e) {
    FAIL() << e.what() << "\n" << own.log_contents();
  }
  EXPECT_EQ(r.status, 201u) << r.body;
  EXPECT_EQ(str(parse(r.body), "name"), "drained tenant");
  EXPECT_EQ(r.header("connection"), "close");

  EXPECT_EQ(own.wait_exit(std::chrono::seconds(20)), 0) << own.log_contents();
}

TEST(shutdown_test, with_a_drain_delay_a_node_reports_not_ready_and_keeps_serving_first) {
  service_process own{{{"VCS_DRAIN_DELAY_MS", "1500"}}};
  http_client keep{"127.0.0.1", own.public_port()};
  ASSERT_EQ(keep.get("/readyz").status, 200u);
  own.send_signal(SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // Still accepting and serving, but not ready; answers close their
  // connections so clients move to other nodes.
  auto ready = keep.get("/readyz");
  EXPECT_EQ(ready.status, 503u) << ready.body;
  EXPECT_EQ(str(parse(ready.body), "message"), "draining") << ready.body;
  EXPECT_EQ(ready.header("connection"), "close");
  http_client fresh{"127.0.0.1", own.operator_port()};
  auto created = fresh.request("POST", "/admin/v1/tenants", R"({"name":"late","plan":"PRO"})",
                               bearer(own.operator_token()));
  EXPECT_EQ(created.status, 201u) << created.body;
  EXPECT_EQ(own.wait_exit(std::chrono::milliseconds(0)), -1) << "exited before the delay";
  EXPECT_EQ(own.wait_exit(std::chrono::seconds(20)), 0) << own.log_contents();
}

// Claims go stale only after ten minutes here: the heir continues the job
// within seconds only because the stopping node released it.
TEST(shutdown_test, a_node_stopped_mid_import_hands_the_job_on) {
  const std::map<std::string, std::string> env{{"VCS_IMPORT_STALE_SECONDS", "600"},
                                               {"VCS_IMPORT_SWEEP_INTERVAL_MS", "300"}};
  auto small_chunks = env;
  small_chunks["VCS_IMPORT_CHUNK_SIZE"] = "100";
  auto stopping = std::make_unique<service_process>(small_chunks);
  service_process heir{env};
  http_client op{"127.0.0.1", heir.operator_port()};
  auto t = parse(op.request("POST", "/admin/v1/tenants", R"({"name":"handover","plan":"PRO"})",
                            bearer(heir.operator_token()))
                     .body);
  const auto key = str(t["api_key"], "key");
  http_client pub{"127.0.0.1", heir.public_port()};
  auto c = pub.request("POST", "/api/v2/voice-campaigns", R"({"name":"handover"})", bearer(key));
  ASSERT_EQ(c.status, 201u) << c.body;
  const auto campaign = "/api/v2/voice-campaigns/" + str(parse(c.body)["data"], "campaign_id");
  constexpr int total = 30'000;
  const auto body = numbered_leads(total, 3'000'000);
  http_client doomed{"127.0.0.1", stopping->public_port()};
  auto accepted = doomed.request("POST", campaign + "/leads/bulk", body, bearer(key));
  ASSERT_EQ(accepted.status, 200u) << accepted.body;
  EXPECT_EQ(stopping->terminate(), 0);
  EXPECT_NE(stopping->log_contents().find("handed on 1 unfinished import"), std::string::npos)
      << stopping->log_contents();
  stopping.reset();

  auto listed = [&] {
    return parse(pub.request("GET", campaign + "/leads/list?limit=1", {}, bearer(key))
                     .body)["page_info"]["total_count"]
        .GetInt();
  };
  EXPECT_LT(listed(), total) << "the import finished before the stop; the test proved nothing";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (listed() < total && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(listed(), total);
  auto job = parse(
      pub.request("GET", campaign + "/leads/imports/" + str(parse(accepted.body), "import_id"), {},
                  bearer(key))
          .body);
  EXPECT_EQ(str(job, "status"), "done");
  EXPECT_EQ(job["inserted"].GetInt(), total);
}

TEST(shutdown_test, a_node_stopped_mid_dial_pass_hands_the_campaign_on) {
  // Rounds only on demand, and a lease long enough to tell a campaign
  // handed on from one left until its lease runs out.
  service_process stopping{{{"VCS_DIAL_INTERVAL_MS", "3600000"},
                            {"VCS_DIAL_LEASE_SECONDS", "600"},
                            {"VCS_DB_LOCK_TIMEOUT_MS", "1500"}}};
  const auto token = bearer(stopping.operator_token());
  http_client op{"127.0.0.1", stopping.operator_port()};
  auto t = parse(
      op.request("POST", "/admin/v1/tenants", R"({"name":"dial handover","plan":"PRO"})", token)
          .body);
  http_client pub{"127.0.0.1", stopping.public_port()};
  auto c = pub.request("POST", "/api/v2/voice-campaigns", R"({"name":"dial handover"})",
                       bearer(str(t["api_key"], "key")));
  ASSERT_EQ(c.status, 201u) << c.body;
  const long long campaign = *domain::decode_global_id(domain::entity::campaign,
                                                       str(parse(c.body)["data"], "campaign_id"));
  // Due before any other campaign of the database, so the round takes it.
  auto sql = storage::open_session(database_url());
  *sql << "UPDATE campaigns SET status = 'ACTIVE', next_dial_at = '2000-01-01T00:00:00Z' "
          "WHERE id = :c",
      soci::use(campaign);
  auto held_by = [&] {
    std::string node;
    *sql << "SELECT coalesce(dial_claimed_by, '') FROM campaigns WHERE id = :c", soci::into(node),
        soci::use(campaign);
    return node;
  };
  auto count_where = [&](const std::string& condition) {
    int n = 0;
    *sql << "SELECT count(*) FROM campaigns WHERE id = :c AND " + condition, soci::into(n),
        soci::use(campaign);
    return n;
  };

  // A pass reads the campaign's assignments early: with them locked it
  // waits (and fails at the lock timeout) after its round claimed the
  // campaign.
  auto holder = storage::open_session(database_url());
  soci::transaction hold{*holder};
  *holder << "LOCK TABLE assigned_resources IN ACCESS EXCLUSIVE MODE";
  std::thread round{[&] {
    try {
      http_client again{"127.0.0.1", stopping.operator_port()};
      again.request("POST", "/admin/v1/dialer/run", "{}", token);
    } catch (const std::exception&) {
      // The answer does not matter here, only the lease it leaves.
    }
  }};
  ASSERT_TRUE(eventually([&] { return !held_by().empty(); })) << stopping.log_contents();
  EXPECT_EQ(count_where("next_dial_at > now() + interval '500 seconds'"), 1)
      << "claimed with its 600 s lease";

  stopping.send_signal(SIGTERM);
  EXPECT_EQ(stopping.wait_exit(std::chrono::seconds(30)), 0) << stopping.log_contents();
  hold.rollback();
  round.join();
  // Handed on: due now and held by no node, for the next round anywhere.
  EXPECT_EQ(held_by(), "");
  EXPECT_EQ(count_where("next_dial_at <= now()"), 1);
  EXPECT_NE(stopping.log_contents().find("unfinished dial pass(es) to the other nodes"),
            std::string::npos)
      << stopping.log_contents();
}

} // namespace
} // namespace vcs::test
