// A campaign's lead statistics read every lead of it, so a node reads them
// once per campaign at a time: workers that find them expired together
// share one read, and a read that fails holds nobody up.
#include "storage/campaign_repository.hpp"
#include "storage/database.hpp"
#include "storage/lead_statistics.hpp"
#include "storage/migrations.hpp"
#include "storage/tenant_repository.hpp"

#include "service_process.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <chrono>
#include <future>
#include <latch>
#include <memory>
#include <set>
#include <thread>
#include <vector>

namespace vcs::storage {
namespace {

using test::database_url;

class lead_statistics_test : public ::testing::Test {
protected:
  void SetUp() override { migrate(*sql); }

  // A campaign of `leads` idle leads.
  std::pair<int64_t, int64_t> campaign_with(const std::string& name, int leads) {
    auto tenant = insert_tenant(*sql, name, domain::plan::pro, std::nullopt);
    domain::campaign_fields fields;
    fields.name = name;
    const auto campaign = insert_campaign(*sql, tenant.id, fields).id;
    *sql << "INSERT INTO leads (tenant_id, campaign_id, position, phone_number) "
            "SELECT :t, :c, g, '+1415' || lpad(g::text, 7, '0') FROM generate_series(0, :n - 1) g",
        soci::use(tenant.id), soci::use(campaign), soci::use(leads);
    return {tenant.id, campaign};
  }

  std::unique_ptr<soci::session> sql = open_session(database_url());
};

TEST_F(lead_statistics_test, workers_that_find_the_figures_missing_together_share_one_read) {
  const auto [tenant, campaign] = campaign_with("statistics shared", 30'000);
  constexpr int workers = 6;
  std::vector<std::unique_ptr<soci::session>> sessions;
  for (int i = 0; i < workers; ++i)
    sessions.push_back(open_session(database_url()));
  std::vector<lead_statistics> seen(workers);
  std::latch start{workers};
  std::vector<std::thread> threads;
  for (int i = 0; i < workers; ++i)
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      seen[i] = read_lead_statistics(*sessions[i], tenant, {campaign})[campaign];
    });
  for (auto& t : threads)
    t.join();
  std::set<domain::timestamp> reads;
  for (const auto& s : seen) {
    reads.insert(s.counted_at);
    ASSERT_EQ(s.call_statuses.size(), 1u);
    EXPECT_EQ(s.call_statuses[0], (std::pair<std::string, int64_t>{"IDLE", 30'000}));
    EXPECT_EQ(s.dialable, 30'000);
  }
  EXPECT_EQ(reads.size(), 1u) << "each worker read every lead itself";
}

TEST_F(lead_statistics_test, a_failed_read_holds_up_no_later_one) {
  const auto [tenant, campaign] = campaign_with("statistics after a failure", 10);
  // A session whose transaction has failed fails its read too.
  auto broken = open_session(database_url());
  *broken << "BEGIN";
  EXPECT_THROW(*broken << "SELECT 1 / 0", std::exception);
  EXPECT_THROW(read_lead_statistics(*broken, tenant, {campaign}), std::exception);
  // Detached, so that a read left waiting fails the test instead of hanging it.
  auto done = std::make_shared<std::promise<lead_statistics>>();
  auto later = done->get_future();
  std::thread{[done, tenant, campaign, session = std::move(sql)] {
    done->set_value(read_lead_statistics(*session, tenant, {campaign})[campaign]);
  }}.detach();
  ASSERT_EQ(later.wait_for(std::chrono::seconds(30)), std::future_status::ready)
      << "the failed read still holds the figures up";
  const auto stats = later.get();
  ASSERT_EQ(stats.call_statuses.size(), 1u);
  EXPECT_EQ(stats.call_statuses[0].second, 10);
}

// A read that starts before the figures expire (after 1.5 of their 2 s) and
// fails leaves its request the figures it found.
TEST_F(lead_statistics_test, a_failed_read_ahead_of_expiry_answers_the_figures_kept) {
  const auto [tenant, campaign] = campaign_with("statistics read ahead", 7);
  const auto kept = read_lead_statistics(*sql, tenant, {campaign})[campaign];
  std::this_thread::sleep_for(std::chrono::milliseconds{1'700});
  auto broken = open_session(database_url());
  *broken << "BEGIN";
  EXPECT_THROW(*broken << "SELECT 1 / 0", std::exception);
  auto stats = read_lead_statistics(*broken, tenant, {campaign})[campaign];
  EXPECT_EQ(stats.counted_at, kept.counted_at);
  ASSERT_EQ(stats.call_statuses.size(), 1u);
  EXPECT_EQ(stats.call_statuses[0].second, 7);
  // The next request reads them anew.
  EXPECT_GT(read_lead_statistics(*sql, tenant, {campaign})[campaign].counted_at, kept.counted_at);
}

} // namespace
} // namespace vcs::storage
