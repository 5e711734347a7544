// The contact caps' count of a number's calls (storage::lock_recent_contacts):
// a dial pass that holds a number's lock keeps every other pass of the
// tenant, on any session, from counting that number until it commits, so
// two campaigns cannot both place the call that fills a cap; another
// tenant's number of the same digits is not held up.
#include "storage/campaign_repository.hpp"
#include "storage/database.hpp"
#include "storage/dialer_repository.hpp"
#include "storage/migrations.hpp"
#include "storage/tenant_repository.hpp"

#include "service_process.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace vcs::storage {
namespace {

using namespace std::chrono_literals;
using test::database_url;

constexpr const char* number = "+13055550150";

class contact_lock_test : public ::testing::Test {
protected:
  void SetUp() override { migrate(*sql); }

  int64_t campaign_of(int64_t tenant_id) {
    domain::campaign_fields fields;
    fields.name = "capped";
    return insert_campaign(*sql, tenant_id, fields).id;
  }

  // A call to `number` dialed at `at`, as the dial pass records it.
  static void call(soci::session& s, int64_t tenant_id, int64_t campaign_id, const std::string& at,
                   const std::string& status = "QUEUED") {
    // soci binds by reference until the statement runs: a named value.
    const std::string phone{number};
    s << "INSERT INTO calls (tenant_id, campaign_id, lead_id, phone_number, attempt, status, "
         "node_id, dialed_at) VALUES (:t, :c, 1, :n, 1, :s, 'test', CAST(:a AS timestamptz))",
        soci::use(tenant_id), soci::use(campaign_id), soci::use(phone), soci::use(status),
        soci::use(at);
  }

  std::unique_ptr<soci::session> sql = open_session(database_url());
};

TEST_F(contact_lock_test, counts_the_numbers_calls_newest_first_within_the_window) {
  auto t = insert_tenant(*sql, "counted contacts", domain::plan::pro, std::nullopt);
  auto c = campaign_of(t.id);
  auto other = campaign_of(t.id);
  call(*sql, t.id, c, "2030-01-02T10:00:00Z");
  call(*sql, t.id, other, "2030-01-02T12:00:00Z");
  call(*sql, t.id, c, "2030-01-02T11:00:00Z", "ABANDONED");
  call(*sql, t.id, c, "2030-01-01T09:00:00Z");
  const auto since = *domain::parse_iso8601("2030-01-01T12:00:00Z");
  auto recent = read_recent_contacts(*sql, t.id, {number}, since, 3);
  ASSERT_EQ(recent[number].size(), 2u) << "both campaigns' calls; not the refused or the old one";
  EXPECT_EQ(recent[number][0], *domain::parse_iso8601("2030-01-02T12:00:00Z"));
  EXPECT_EQ(recent[number][1], *domain::parse_iso8601("2030-01-02T10:00:00Z"));
  EXPECT_EQ(read_recent_contacts(*sql, t.id, {number}, since, 1)[number].size(), 1u);
}

TEST_F(contact_lock_test, a_second_pass_counts_a_number_only_after_the_first_commits) {
  auto t = insert_tenant(*sql, "locked contacts", domain::plan::pro, std::nullopt);
  auto other_tenant = insert_tenant(*sql, "other contacts", domain::plan::pro, std::nullopt);
  auto c = campaign_of(t.id);
  const auto since = *domain::parse_iso8601("2030-01-01T00:00:00Z");

  auto first = open_session(database_url());
  soci::transaction pass{*first};
  EXPECT_TRUE(lock_recent_contacts(*first, t.id, {number}, since, 3).empty());
  call(*first, t.id, c, "2030-01-02T10:00:00Z");

  // Another tenant's number is not held up.
  auto neighbour = open_session(database_url());
  {
    soci::transaction other{*neighbour};
    EXPECT_TRUE(lock_recent_contacts(*neighbour, other_tenant.id, {number}, since, 3).empty());
    other.commit();
  }

  std::atomic<bool> counted{false};
  std::size_t seen = 0;
  std::thread second_pass{[&] {
    auto second = open_session(database_url());
    soci::transaction tx{*second};
    seen = lock_recent_contacts(*second, t.id, {number, "+12125550151"}, since, 3)[number].size();
    counted = true;
    tx.commit();
  }};
  std::this_thread::sleep_for(300ms);
  EXPECT_FALSE(counted) << "the second pass waits for the first one's lock";
  pass.commit();
  second_pass.join();
  EXPECT_TRUE(counted);
  EXPECT_EQ(seen, 1u) << "and then counts the first pass's call";
}

} // namespace
} // namespace vcs::storage
