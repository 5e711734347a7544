// What the schema's reference from leads to campaigns guaranteed, kept
// without it (migration 0009): a lead belongs to its campaign's tenant, and
// deleting a campaign or its tenant deletes its leads.
#include "storage/campaign_repository.hpp"
#include "storage/database.hpp"
#include "storage/lead_repository.hpp"
#include "storage/migrations.hpp"
#include "storage/tenant_repository.hpp"

#include "leads_with.hpp"
#include "service_process.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

namespace vcs::storage {
namespace {

using test::database_url;

class lead_ownership_test : public ::testing::Test {
protected:
  void SetUp() override { migrate(*sql); }

  int64_t new_campaign(int64_t tenant_id, const std::string& name) {
    domain::campaign_fields fields;
    fields.name = name;
    return insert_campaign(*sql, tenant_id, fields).id;
  }

  long long leads_of(int64_t campaign_id) {
    long long n = -1;
    *sql << "SELECT count(*) FROM leads WHERE campaign_id = :c", soci::use(campaign_id),
        soci::into(n);
    return n;
  }

  std::unique_ptr<soci::session> sql = open_session(database_url());
};

TEST_F(lead_ownership_test, leads_go_only_into_a_campaign_of_the_tenant_named) {
  auto owner = insert_tenant(*sql, "lead owner", domain::plan::pro, std::nullopt);
  auto other = insert_tenant(*sql, "lead intruder", domain::plan::pro, std::nullopt);
  auto campaign = new_campaign(owner.id, "owned leads");
  const auto rows = test::leads_with({"+14155550131"});
  EXPECT_THROW(insert_leads(*sql, other.id, campaign, rows), std::exception);
  EXPECT_EQ(leads_of(campaign), 0);
  EXPECT_EQ(insert_leads(*sql, owner.id, campaign, rows).inserted, 1);
  EXPECT_EQ(leads_of(campaign), 1);
}

TEST_F(lead_ownership_test, deleting_a_campaign_or_its_tenant_deletes_its_leads) {
  auto tenant = insert_tenant(*sql, "deleted leads", domain::plan::pro, std::nullopt);
  auto first = new_campaign(tenant.id, "deleted first");
  auto second = new_campaign(tenant.id, "deleted with tenant");
  const auto rows = test::leads_with({"+14155550141", "+14155550142"});
  insert_leads(*sql, tenant.id, first, rows);
  insert_leads(*sql, tenant.id, second, rows);
  ASSERT_EQ(leads_of(first), 2);

  *sql << "DELETE FROM campaigns WHERE id = :c", soci::use(first);
  EXPECT_EQ(leads_of(first), 0);
  EXPECT_EQ(leads_of(second), 2);

  *sql << "DELETE FROM tenants WHERE id = :t", soci::use(tenant.id);
  EXPECT_EQ(leads_of(second), 0);
}

} // namespace
} // namespace vcs::storage
