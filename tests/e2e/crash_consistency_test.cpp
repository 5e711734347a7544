// Crash consistency: a node is killed hard (SIGKILL) at random moments while
// it takes mixed load (single leads, bulk imports, payment status changes,
// campaign edits); after each kill a new node starts on the database. In the
// end every acknowledged write is there exactly once, accepted imports are
// complete, and the subscription's state matches its payment requests.

#include "billing_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

#include <atomic>
#include <csignal>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

namespace vcs::test {
namespace {

class crash_consistency_test : public billing_fixture {
protected:
  // The node under load; replaced after every kill.
  struct live_node {
    std::mutex mtx;
    std::unique_ptr<service_process> process;
    unsigned short port = 0;

    unsigned short public_port() {
      std::lock_guard guard{mtx};
      return port;
    }
    void replace() {
      auto fresh = std::make_unique<service_process>(
          std::map<std::string, std::string>{{"VCS_IMPORT_CHUNK_SIZE", "200"},
                                             {"VCS_IMPORT_STALE_SECONDS", "1"},
                                             {"VCS_IMPORT_SWEEP_INTERVAL_MS", "200"}});
      std::lock_guard guard{mtx};
      port = fresh->public_port();
      process = std::move(fresh);
    }
  };

  // One request to the node that is up now; status 0 when none answered.
  http_response send(live_node& node, const std::string& method, const std::string& target,
                     const std::string& body) {
    try {
      http_client c{"127.0.0.1", node.public_port()};
      return c.request(method, target, body, bearer(t.key));
    } catch (const std::exception&) {
      return {};
    }
  }

  long long count(const std::string& query, long long campaign) {
    auto sql = storage::open_session(database_url());
    long long n = -1;
    *sql << query, soci::use(campaign), soci::into(n);
    return n;
  }
};

std::string phone(const char* prefix, int n) {
  auto digits = std::to_string(n);
  return std::string{prefix} + std::string(7 - digits.size(), '0') + digits;
}

TEST_F(crash_consistency_test, every_acknowledged_write_survives_hard_kills_exactly_once) {
  auto leads_campaign = campaigns["DRAFT"];
  auto edited_campaign = campaigns["PAUSED"];
  auto base = "/api/v2/voice-campaigns/" + leads_campaign;
  // Cycle requests, all PAID first: from then on the load moves them between
  // OVERDUE and PAID, and the subscription must be past_due exactly when one
  // is OVERDUE.
  std::vector<std::string> requests;
  for (int i = 0; i < 4; ++i) {
    requests.push_back(issue("SUBSCRIPTION", from_now(std::chrono::hours(240))));
    ASSERT_EQ(set_payment(requests.back(), "PAID").status, 200u);
  }

  live_node node;
  node.replace();
  std::atomic<bool> stop{false};
  std::mutex mtx;
  std::vector<std::string> acked_leads;
  std::vector<int> acked_imports;
  std::map<std::string, std::set<std::string>> payment_candidates; // acked + unanswered
  std::map<std::string, std::string> payment_acked;
  std::set<std::string> name_candidates;
  std::string name_acked;
  int payment_writes = 0, name_writes = 0;

  std::vector<std::thread> load;
  load.emplace_back([&] {
    for (int i = 0; !stop; ++i) {
      auto p = phone("+1631", i);
      auto r = send(node, "POST", base + "/leads", R"({"phone_number":")" + p + "\"}");
      if (r.status == 201) {
        std::lock_guard guard{mtx};
        acked_leads.push_back(p);
      }
    }
  });
  load.emplace_back([&] {
    for (int j = 0; !stop && j < 40; ++j) {
      std::string body = "[";
      for (int k = 0; k < 1000; ++k)
        body += std::string{k ? "," : ""} + R"({"phone_number":")" + phone("+1632", j * 1000 + k) +
                "\"}";
      auto r = send(node, "POST", base + "/leads/bulk", body + "]");
      if (r.status == 200) {
        std::lock_guard guard{mtx};
        acked_imports.push_back(j);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  load.emplace_back([&] {
    for (int k = 0; !stop; ++k) {
      const auto& id = requests[k % requests.size()];
      std::string status = (k / requests.size()) % 2 ? "PAID" : "OVERDUE";
      {
        std::lock_guard guard{mtx};
        payment_candidates[id].insert(status);
      }
      auto r = send(node, "PATCH", "/api/v2/external-billing/payment-requests/" + id + "/update",
                    R"({"status":")" + status + "\"}");
      std::lock_guard guard{mtx};
      if (r.status == 200) {
        payment_acked[id] = status;
        ++payment_writes;
        payment_candidates[id] = {status};
      }
    }
  });
  load.emplace_back([&] {
    for (int k = 0; !stop; ++k) {
      auto name = "renamed " + std::to_string(k);
      {
        std::lock_guard guard{mtx};
        name_candidates.insert(name);
      }
      auto r = send(node, "PATCH", "/api/v2/voice-campaigns/" + edited_campaign,
                    R"({"name":")" + name + "\"}");
      std::lock_guard guard{mtx};
      if (r.status == 200) {
        name_acked = name;
        ++name_writes;
        name_candidates = {name};
      }
    }
  });

  std::mt19937 rng{std::random_device{}()};
  std::uniform_int_distribution<int> pause_ms{300, 1500};
  constexpr int kills = 5;
  // A node that fails to start fails the test; the load threads are joined
  // first either way.
  std::string failed_start;
  try {
    for (int round = 0; round < kills; ++round) {
      std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms(rng)));
      {
        std::lock_guard guard{node.mtx};
        node.process->send_signal(SIGKILL);
        node.process->wait_exit(std::chrono::seconds(10));
      }
      node.replace();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms(rng)));
  } catch (const std::exception& e) {
    failed_start = e.what();
  }
  stop = true;
  for (auto& th : load)
    th.join();
  ASSERT_EQ(failed_start, "");

  // Load reached every kind of write, so the checks below check something.
  ASSERT_GT(acked_leads.size(), 0u);
  ASSERT_GT(acked_imports.size(), 0u);
  ASSERT_FALSE(payment_acked.empty());
  ASSERT_FALSE(name_acked.empty());

  auto campaign_db_id = *domain::decode_global_id(domain::entity::campaign, leads_campaign);
  // Accepted imports finish on the last node (abandoned jobs are taken over).
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (count("SELECT count(*) FROM lead_import_jobs WHERE campaign_id = :c AND status <> 'done'",
               campaign_db_id) > 0 &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(count("SELECT count(*) FROM lead_import_jobs WHERE campaign_id = :c AND status <> "
                  "'done'",
                  campaign_db_id),
            0);
  EXPECT_EQ(count("SELECT count(*) FROM (SELECT phone_number FROM leads WHERE campaign_id = :c "
                  "GROUP BY phone_number HAVING count(*) > 1) d",
                  campaign_db_id),
            0)
      << "a lead is stored twice";

  auto sql = storage::open_session(database_url());
  std::set<std::string> stored;
  {
    soci::rowset<std::string> rows =
        (sql->prepare << "SELECT phone_number FROM leads WHERE campaign_id = :c",
         soci::use(campaign_db_id));
    for (const auto& p : rows)
      stored.insert(p);
  }
  std::size_t missing_leads = 0, missing_imported = 0;
  for (const auto& p : acked_leads)
    missing_leads += stored.count(p) ? 0 : 1;
  for (int j : acked_imports)
    for (int k = 0; k < 1000; ++k)
      missing_imported += stored.count(phone("+1632", j * 1000 + k)) ? 0 : 1;
  EXPECT_EQ(missing_leads, 0u) << "of " << acked_leads.size() << " acknowledged leads";
  EXPECT_EQ(missing_imported, 0u) << "of " << acked_imports.size() << " accepted imports";

  // A write that was under way at a kill may have landed or not; anything
  // else is the last acknowledged value.
  bool any_overdue = false;
  for (const auto& id : requests) {
    auto status = str(payment(id), "status");
    EXPECT_TRUE(payment_candidates[id].count(status))
        << id << " is " << status << ", acknowledged " << payment_acked[id];
    any_overdue = any_overdue || status == "OVERDUE";
  }
  EXPECT_EQ(subscription_status(), any_overdue ? "past_due" : "active");
  auto name = str(
      parse(pub("GET", "/api/v2/voice-campaigns/" + edited_campaign, t.key).body)["data"], "name");
  EXPECT_TRUE(name_candidates.count(name)) << name << ", acknowledged " << name_acked;
  std::printf("crash consistency: %d kills; acknowledged: %zu leads, %zu imports of 1000, %d "
              "payment changes, %d campaign edits\n",
              kills, acked_leads.size(), acked_imports.size(), payment_writes, name_writes);
  node.process->terminate();
}

} // namespace
} // namespace vcs::test
