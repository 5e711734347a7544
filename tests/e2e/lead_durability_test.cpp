// Leads under concurrency and crashes: concurrent merges from two nodes lose
// nothing, a removal is never undone by a racing update, and a bulk import
// killed mid-way is finished after a restart with every lead exactly once.

#include "domain/global_id.hpp"
#include "service_fixture.hpp"
#include "storage/database.hpp"

#include <soci/soci.h>

#include <atomic>
#include <csignal>
#include <thread>

namespace vcs::test {
namespace {

std::string phone(int i) {
  return "+1415555" + std::to_string(1000 + i);
}

class lead_durability_test : public service_test {
protected:
  std::string new_campaign(const std::string& key) {
    auto r = pub("POST", "/api/v2/voice-campaigns", key, R"({"name":"durable"})");
    EXPECT_EQ(r.status, 201u) << r.body;
    return str(parse(r.body)["data"], "campaign_id");
  }
};

TEST_F(lead_durability_test, concurrent_merges_from_two_nodes_keep_every_key) {
  auto t = create_tenant();
  auto campaign = new_campaign(t.key);
  auto base = "/api/v2/voice-campaigns/" + campaign;
  constexpr int leads = 20;
  constexpr int writers = 8;
  for (int i = 0; i < leads; ++i)
    ASSERT_EQ(pub("POST", base + "/leads", t.key, R"({"phone_number":")" + phone(i) + "\"}").status,
              201u);
  service_process second_node;
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w)
    threads.emplace_back([&, w] {
      auto port = w % 2 == 0 ? svc.public_port() : second_node.public_port();
      http_client c{"127.0.0.1", port};
      auto key = "k" + std::to_string(w);
      if (w % 4 < 2) {
        // Bulk: one request with every lead.
        std::string body = "[";
        for (int i = 0; i < leads; ++i)
          body += std::string{i ? "," : ""} + R"({"phone_number":")" + phone(i) +
                  R"(","custom_fields":{")" + key + R"(":)" + std::to_string(w) + "}}";
        body += "]";
        auto r = c.request("PATCH", base + "/leads/update/bulk", body, bearer(t.key));
        EXPECT_EQ(r.status, 200u) << r.body;
      } else {
        // v1: one request per lead.
        for (int i = 0; i < leads; ++i) {
          auto r =
              c.request("PATCH", "/v1/api/voice-campaigns/" + campaign + "/lead/update",
                        R"({"tenant_id":")" + t.id + R"(","phone_number":")" + phone(i) +
                            R"(","custom_fields":{")" + key + R"(":)" + std::to_string(w) + "}}",
                        bearer(t.key));
          EXPECT_EQ(r.status, 200u) << r.body;
        }
      }
    });
  for (auto& th : threads)
    th.join();
  auto page = parse(pub("GET", base + "/leads/list?limit=50", t.key).body);
  ASSERT_EQ(page["leads"].Size(), static_cast<rapidjson::SizeType>(leads));
  for (const auto& l : page["leads"].GetArray())
    for (int w = 0; w < writers; ++w) {
      auto key = "k" + std::to_string(w);
      ASSERT_TRUE(l["custom_fields"].HasMember(key.c_str()))
          << str(l, "phone_number") << " lost " << key;
      EXPECT_EQ(l["custom_fields"][key.c_str()].GetInt(), w);
    }
}

TEST_F(lead_durability_test, removal_racing_updates_is_never_undone) {
  auto t = create_tenant();
  auto campaign = new_campaign(t.key);
  auto v1 = "/v1/api/voice-campaigns/" + campaign;
  ASSERT_EQ(pub("POST", "/api/v2/voice-campaigns/" + campaign + "/leads", t.key,
                R"({"phone_number":"+14155550001"})")
                .status,
            201u);
  service_process second_node;
  std::atomic<bool> removed{false};
  std::thread updater([&] {
    http_client c{"127.0.0.1", second_node.public_port()};
    for (int i = 0; i < 100; ++i) {
      // Only an update sent after the removal was acknowledged must fail;
      // one sent before may legitimately commit first.
      bool sent_after_removal = removed.load();
      auto r = c.request("PATCH", v1 + "/lead/update",
                         R"({"tenant_id":")" + t.id +
                             R"(","phone_number":"+14155550001","custom_fields":{"n":)" +
                             std::to_string(i) + "}}",
                         bearer(t.key));
      EXPECT_TRUE(r.status == 200u || r.status == 404u) << r.body;
      if (sent_after_removal) {
        EXPECT_EQ(r.status, 404u) << "updated after the removal was acknowledged";
      }
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  auto r = pub("DELETE", v1 + "/lead/remove", t.key,
               R"({"tenant_id":")" + t.id + R"(","phone_number":"+14155550001"})");
  ASSERT_EQ(r.status, 200u) << r.body;
  removed = true;
  updater.join();
  auto page = parse(pub("GET", "/api/v2/voice-campaigns/" + campaign + "/leads/list", t.key).body);
  EXPECT_EQ(page["leads"].Size(), 0u);
  EXPECT_EQ(page["page_info"]["total_count"].GetInt64(), 0);
}

TEST_F(lead_durability_test, import_killed_mid_way_finishes_after_restart_exactly_once) {
  auto t = create_tenant();
  auto campaign = new_campaign(t.key);
  auto base = "/api/v2/voice-campaigns/" + campaign;
  constexpr int total = 60'000;
  std::string body = "[";
  for (int i = 0; i < total; ++i)
    body += std::string{i ? "," : ""} + R"({"phone_number":"+1628)" + std::to_string(2000000 + i) +
            "\"}";
  body += "]";

  std::string import_id;
  {
    service_process doomed{{{"VCS_IMPORT_CHUNK_SIZE", "1000"}}};
    http_client c{"127.0.0.1", doomed.public_port()};
    auto r = c.request("POST", base + "/leads/bulk", body, bearer(t.key));
    ASSERT_EQ(r.status, 200u) << r.body;
    import_id = str(parse(r.body), "import_id");
    // Kill it hard once the import is under way.
    for (int i = 0; i < 500; ++i) {
      auto job = parse(c.get(base + "/leads/imports/" + import_id, bearer(t.key)).body);
      if (job["inserted"].GetInt() > 0)
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    doomed.send_signal(SIGKILL);
    doomed.wait_exit(std::chrono::seconds(10));
  }
  auto before = parse(pub("GET", base + "/leads/imports/" + import_id, t.key).body);
  EXPECT_LT(before["inserted"].GetInt(), total) << "the import finished before the kill";

  // A new node takes the dead node's claim over once it is stale.
  service_process restarted{
      {{"VCS_IMPORT_STALE_SECONDS", "1"}, {"VCS_IMPORT_SWEEP_INTERVAL_MS", "200"}}};
  http_client c{"127.0.0.1", restarted.public_port()};
  rapidjson::Document job;
  for (int i = 0; i < 600; ++i) {
    job = parse(c.get(base + "/leads/imports/" + import_id, bearer(t.key)).body);
    if (str(job, "status") == "done")
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(str(job, "status"), "done");
  EXPECT_EQ(job["inserted"].GetInt(), total);
  EXPECT_EQ(job["duplicates"].GetInt(), 0);

  auto sql = storage::open_session(database_url());
  auto cid = domain::decode_global_id(domain::entity::campaign, campaign).value_or(0);
  long long rows = 0, distinct = 0, counted = 0, blocks = 0;
  *sql << "SELECT count(*), count(DISTINCT phone_number) FROM leads WHERE campaign_id = :c",
      soci::use(cid), soci::into(rows), soci::into(distinct);
  *sql << "SELECT lead_count FROM campaigns WHERE id = :c", soci::use(cid), soci::into(counted);
  *sql << "SELECT coalesce(sum(live_count), 0) FROM lead_blocks WHERE campaign_id = :c",
      soci::use(cid), soci::into(blocks);
  EXPECT_EQ(rows, total);
  EXPECT_EQ(distinct, total);
  EXPECT_EQ(counted, total);
  EXPECT_EQ(blocks, total);
}

} // namespace
} // namespace vcs::test
