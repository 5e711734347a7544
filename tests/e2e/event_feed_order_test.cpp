// The events feed reads in transaction order, numerically: a transaction id
// of more digits comes after one of fewer.
#include "storage/database.hpp"
#include "storage/event_repository.hpp"
#include "storage/migrations.hpp"
#include "storage/tenant_repository.hpp"

#include "service_process.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <memory>

namespace vcs::storage {
namespace {

using test::database_url;

TEST(event_feed_order_test, transactions_are_read_in_numeric_order) {
  auto sql = open_session(database_url());
  migrate(*sql);
  const auto tenant = insert_tenant(*sql, "feed order", domain::plan::pro, std::nullopt).id;
  // Transaction ids 9, 10 and 100: as text, "10" and "100" sort before "9".
  *sql << "INSERT INTO events (tenant_id, txid, event_id, event_type, payload) VALUES "
          "(:t1, '100'::xid8, 'evt_order_c', 'call.ended', '{}'), "
          "(:t2, '9'::xid8, 'evt_order_a', 'call.ended', '{}'), "
          "(:t3, '10'::xid8, 'evt_order_b', 'call.ended', '{}')",
      soci::use(tenant, "t1"), soci::use(tenant, "t2"), soci::use(tenant, "t3");
  auto events = read_events(*sql, tenant, {}, std::nullopt, 10);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].at.txid, 9u);
  EXPECT_EQ(events[1].at.txid, 10u);
  EXPECT_EQ(events[2].at.txid, 100u);
  EXPECT_EQ(read_events(*sql, tenant, events[0].at, std::nullopt, 1).at(0).at.txid, 10u);
  EXPECT_EQ(feed_end(*sql, tenant).txid, 100u);
}

} // namespace
} // namespace vcs::storage
