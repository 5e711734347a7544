// Rows past their retention go a batch at a time, oldest first, and only
// those: open or unbilled calls, pending deliveries, young rows and kinds
// kept forever stay.
#include "storage/campaign_repository.hpp"
#include "storage/database.hpp"
#include "storage/migrations.hpp"
#include "storage/retention.hpp"
#include "storage/tenant_repository.hpp"

#include "service_process.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

namespace vcs::storage {
namespace {

using test::database_url;

// Older than this test's policy (5 days) and younger than the service's
// defaults (30 and 90), so that only this test's purges take them.
constexpr int age_days = 10;

class retention_test : public ::testing::Test {
protected:
  void SetUp() override {
    migrate(*sql);
    tenant = insert_tenant(*sql, "retention", domain::plan::pro, std::nullopt).id;
    domain::campaign_fields fields;
    fields.name = "retention";
    campaign = insert_campaign(*sql, tenant, fields).id;
  }

  long long count(const std::string& query) {
    long long n = 0;
    *sql << query, soci::into(n), soci::use(tenant, "t");
    return n;
  }

  // Another node may hold the purge lock for a moment: try again then.
  purged_rows purge(const retention_policy& policy, int32_t batch) {
    for (int attempt = 0; attempt < 50; ++attempt) {
      auto gone = purge_expired(*sql, policy, batch);
      if (gone.total() > 0)
        return gone;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return {};
  }

  // A call that ended `days` ago (NULL: still open).
  void call(std::optional<int> days, bool usage_recorded) {
    int ended = days.value_or(-1);
    *sql << "INSERT INTO calls (tenant_id, campaign_id, lead_id, phone_number, attempt, status, "
            "node_id, ended_at, usage_recorded) VALUES (:t, :c, 1, '+14155550100', 1, "
            "'COMPLETED', 'test', "
            "CASE WHEN :e < 0 THEN NULL ELSE now() - make_interval(days => :e2) END, :u)",
        soci::use(tenant, "t"), soci::use(campaign, "c"), soci::use(ended, "e"),
        soci::use(ended, "e2"), soci::use(static_cast<int>(usage_recorded), "u");
  }

  void delivery(int days, const std::string& status) {
    const auto id = "evt_retention_" + std::to_string(tenant) + "_" + std::to_string(++serial);
    *sql << "INSERT INTO webhook_deliveries (tenant_id, event_id, event_type, url, payload, "
            "status, updated_at) VALUES (:t, :id, 'call.ended', 'https://x.test/h', '{}', :s, "
            "now() - make_interval(days => :d))",
        soci::use(tenant, "t"), soci::use(id, "id"), soci::use(status, "s"), soci::use(days, "d");
  }

  void event(int days) {
    const auto id = "evt_feed_" + std::to_string(tenant) + "_" + std::to_string(++serial);
    *sql << "INSERT INTO events (tenant_id, event_id, event_type, payload, created_at) "
            "VALUES (:t, :id, 'call.ended', '{}', now() - make_interval(days => :d))",
        soci::use(tenant, "t"), soci::use(id, "id"), soci::use(days, "d");
  }

  // An import finished `days` ago (NULL: still running) with `rejections`.
  long long import(std::optional<int> days, int rejections) {
    int finished = days.value_or(-1);
    long long job = 0;
    *sql << "INSERT INTO lead_import_jobs (tenant_id, campaign_id, status, accepted, "
            "finished_at) VALUES (:t, :c, 'done', 0, CASE WHEN :f < 0 THEN NULL ELSE "
            "now() - make_interval(days => :f2) END) RETURNING id",
        soci::use(tenant, "t"), soci::use(campaign, "c"), soci::use(finished, "f"),
        soci::use(finished, "f2"), soci::into(job);
    *sql << "INSERT INTO lead_import_rejections (job_id, row_index, reason, message) "
            "SELECT :j, g, 'invalid', 'bad' FROM generate_series(1, :n::int) g",
        soci::use(job, "j"), soci::use(rejections, "n");
    return job;
  }

  std::unique_ptr<soci::session> sql = open_session(database_url());
  int64_t tenant = 0;
  int64_t campaign = 0;
  int serial = 0;
};

TEST_F(retention_test, old_rows_go_and_the_rest_stay) {
  call(age_days, true);            // goes
  call(age_days, false);           // minutes not recorded yet: stays
  call(std::nullopt, false);       // open: stays
  call(1, true);                   // young: stays
  delivery(age_days, "delivered"); // goes
  delivery(age_days, "dead");      // goes
  delivery(age_days, "pending");   // still to send: stays
  delivery(1, "delivered");        // young: stays
  event(age_days);                 // goes
  event(1);                        // stays
  const auto old_job = import(age_days, 2);
  const auto young_job = import(1, 2);
  const auto running_job = import(std::nullopt, 1);
  *sql << "INSERT INTO idempotency_keys (tenant_id, idem_key, fingerprint, claim_token, "
          "created_at) VALUES (:t, 'old', 'f', gen_random_uuid(), now() - interval '25 hours'), "
          "(:t2, 'young', 'f', gen_random_uuid(), now() - interval '23 hours')",
      soci::use(tenant, "t"), soci::use(tenant, "t2");

  const std::chrono::days five{5};
  const retention_policy policy{five, five, five, five};
  auto gone = purge(policy, 100);
  EXPECT_GE(gone.calls, 1);
  EXPECT_EQ(count("SELECT count(*) FROM calls WHERE tenant_id = :t"), 3);
  EXPECT_EQ(count("SELECT count(*) FROM calls WHERE tenant_id = :t AND usage_recorded AND "
                  "ended_at < now() - interval '5 days'"),
            0);
  EXPECT_EQ(count("SELECT count(*) FROM webhook_deliveries WHERE tenant_id = :t"), 2);
  EXPECT_EQ(count("SELECT count(*) FROM webhook_deliveries WHERE tenant_id = :t AND "
                  "(status = 'pending' OR updated_at > now() - interval '2 days')"),
            2);
  EXPECT_EQ(count("SELECT count(*) FROM events WHERE tenant_id = :t"), 1);
  EXPECT_EQ(count("SELECT count(*) FROM lead_import_jobs WHERE tenant_id = :t"), 2);
  EXPECT_EQ(count("SELECT count(*) FROM lead_import_jobs WHERE tenant_id = :t AND id = " +
                  std::to_string(old_job)),
            0);
  EXPECT_EQ(count("SELECT count(*) FROM lead_import_rejections r JOIN lead_import_jobs j ON "
                  "j.id = r.job_id WHERE j.tenant_id = :t"),
            3);
  EXPECT_EQ(count("SELECT count(*) FROM lead_import_jobs WHERE tenant_id = :t AND id IN (" +
                  std::to_string(young_job) + ", " + std::to_string(running_job) + ")"),
            2);
  EXPECT_EQ(count("SELECT count(*) FROM idempotency_keys WHERE tenant_id = :t"), 1);
  EXPECT_EQ(count("SELECT count(*) FROM idempotency_keys WHERE tenant_id = :t AND idem_key = "
                  "'young'"),
            1);
}

TEST_F(retention_test, a_large_import_goes_a_batch_at_a_time_and_then_its_job) {
  const auto job = import(age_days, 5);
  const auto rejections =
      "SELECT count(*) FROM lead_import_rejections WHERE job_id = " + std::to_string(job) +
      " AND :t > 0";
  const auto jobs = "SELECT count(*) FROM lead_import_jobs WHERE id = " + std::to_string(job) +
                    " AND tenant_id = :t";
  const retention_policy policy{{}, {}, {}, std::chrono::days{5}};
  auto first = purge(policy, 3);
  EXPECT_EQ(first.import_rejections, 3);
  EXPECT_TRUE(first.more(3));
  EXPECT_EQ(count(rejections), 2);
  EXPECT_EQ(count(jobs), 1) << "the job went before its rejections";
  purge(policy, 3);
  EXPECT_EQ(count(rejections), 0);
  EXPECT_EQ(count(jobs), 0);
}

TEST_F(retention_test, a_kind_kept_forever_is_never_deleted) {
  call(400, true);
  event(400);
  const retention_policy forever{{}, {}, {}, {}};
  for (int i = 0; i < 3; ++i)
    purge_expired(*sql, forever, 100);
  EXPECT_EQ(count("SELECT count(*) FROM calls WHERE tenant_id = :t"), 1);
  EXPECT_EQ(count("SELECT count(*) FROM events WHERE tenant_id = :t"), 1);
}

} // namespace
} // namespace vcs::storage
