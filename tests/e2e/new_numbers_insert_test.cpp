// A bulk add's rows are taken for new numbers: a plain insert first, in a
// savepoint, and the insert with ON CONFLICT only when a number is already
// in the campaign (storage::insert_leads). Either way the same rows go in,
// at the same positions, and the same ones are rejected.
#include "domain/lead.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/database.hpp"
#include "storage/import_job_repository.hpp"
#include "storage/lead_repository.hpp"
#include "storage/migrations.hpp"
#include "storage/prepared.hpp"
#include "storage/tenant_repository.hpp"

#include "campaign_rows.hpp"
#include "leads_with.hpp"
#include "service_process.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <memory>
#include <string>
#include <vector>

namespace vcs::storage {
namespace {

using test::database_url;

class new_numbers_insert_test : public ::testing::Test {
protected:
  void SetUp() override {
    forget_prepared_statements(*sql);
    migrate(*sql);
    tenant = insert_tenant(*sql, "new numbers", domain::plan::pro, std::nullopt).id;
    domain::campaign_fields fields;
    fields.name = "new numbers";
    campaign = insert_campaign(*sql, tenant, fields).id;
  }

  void TearDown() override { forget_prepared_statements(*sql); }

  static std::string phone(int i) { return "+1415555" + std::to_string(3000 + i); }

  // Numbers first, first + 1, ...
  static domain::bulk_import bulk_of(int rows, int first) {
    domain::bulk_import b;
    for (int i = 0; i < rows; ++i) {
      b.rows.push_back(test::leads_with({phone(first + i)}).front());
      b.row_index.push_back(i);
    }
    b.accepted = rows;
    return b;
  }

  // A committed single add of number i.
  void existing_lead(int i) {
    ASSERT_TRUE(begin_locking_campaign(*sql, tenant, campaign));
    ASSERT_EQ(insert_leads(*sql, tenant, campaign, test::leads_with({phone(i)})).inserted, 1);
    sql->commit();
  }

  // A bulk add of `rows` rows stored as one chunk, inserted with its job.
  void add(int rows, int first = 0) {
    ASSERT_TRUE(begin_locking_campaign(*sql, tenant, campaign));
    job =
        insert_import_job(*sql, tenant, campaign, bulk_of(rows, first), 5000, "node-a", {}).job_id;
    sql->commit();
  }

  // How often this session ran the statement prepared as `name`.
  long long runs_of(const std::string& name) {
    long long n = 0;
    *sql << "SELECT coalesce(sum(generic_plans + custom_plans), 0) FROM pg_prepared_statements "
            "WHERE name = :n",
        soci::use(name), soci::into(n);
    return n;
  }

  std::vector<std::string> phones_in_position_order() {
    return test::phones_in_position_order(*sql, campaign);
  }
  std::vector<int> rejected_indexes() { return test::rejected_indexes(*sql, job); }
  long long lead_count() { return test::lead_count(*sql, campaign); }

  std::unique_ptr<soci::session> sql = open_session(database_url());
  int64_t tenant = 0;
  int64_t campaign = 0;
  int64_t job = 0;
};

TEST_F(new_numbers_insert_test, new_numbers_go_in_by_the_plain_insert_alone) {
  add(150);
  EXPECT_EQ(runs_of("vcs_insert_new_leads"), 1);
  EXPECT_EQ(runs_of("vcs_insert_leads"), 0);
  auto phones = phones_in_position_order();
  ASSERT_EQ(phones.size(), 150u);
  for (int i = 0; i < 150; ++i)
    EXPECT_EQ(phones[static_cast<std::size_t>(i)], phone(i));
  EXPECT_TRUE(rejected_indexes().empty());
  EXPECT_EQ(lead_count(), 150);
}

// The one number the campaign has is the body's last row: the plain insert
// fails there, and the rows go in again with ON CONFLICT in the same
// transaction, which keeps the job stored before them.
TEST_F(new_numbers_insert_test, a_number_the_campaign_has_sends_the_rows_through_on_conflict) {
  existing_lead(149);
  add(150);
  EXPECT_EQ(runs_of("vcs_insert_new_leads"), 1);
  EXPECT_EQ(runs_of("vcs_insert_leads"), 2); // the single add, then the rows again
  auto phones = phones_in_position_order();
  ASSERT_EQ(phones.size(), 150u);
  EXPECT_EQ(phones[0], phone(149));
  for (int i = 0; i < 149; ++i)
    EXPECT_EQ(phones[static_cast<std::size_t>(i) + 1], phone(i));
  EXPECT_EQ(rejected_indexes(), std::vector<int>{149});
  EXPECT_EQ(lead_count(), 150);
  auto stored = find_import_job(*sql, tenant, campaign, job);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->inserted, 149);
  EXPECT_EQ(stored->duplicates, 1);
}

// After a body that met a number the campaign had, the next body goes in
// with ON CONFLICT at once; one that meets none sends the campaign back to
// the plain insert.
TEST_F(new_numbers_insert_test, a_campaign_that_met_known_numbers_skips_the_plain_insert_once) {
  existing_lead(149);
  add(150);
  add(150, 1000);
  EXPECT_EQ(runs_of("vcs_insert_new_leads"), 1);
  EXPECT_EQ(runs_of("vcs_insert_leads"), 3);
  add(150, 2000);
  EXPECT_EQ(runs_of("vcs_insert_new_leads"), 2);
  EXPECT_EQ(runs_of("vcs_insert_leads"), 3);
  EXPECT_EQ(lead_count(), 450);
}

// Outside a transaction there is no savepoint to roll back to, and none is
// needed: the failed insert undoes only itself.
TEST_F(new_numbers_insert_test, a_known_number_outside_a_transaction_goes_in_the_same_way) {
  existing_lead(149);
  auto counts = insert_leads(*sql, tenant, campaign, bulk_of(150, 0).rows);
  EXPECT_EQ(counts.inserted, 149);
  EXPECT_EQ(counts.duplicates, 1);
  EXPECT_EQ(runs_of("vcs_insert_new_leads"), 1);
  EXPECT_EQ(phones_in_position_order().size(), 150u);
  EXPECT_EQ(lead_count(), 150);
}

TEST_F(new_numbers_insert_test, a_small_body_goes_in_with_on_conflict_at_once) {
  add(99);
  EXPECT_EQ(runs_of("vcs_insert_new_leads"), 0);
  EXPECT_EQ(runs_of("vcs_insert_leads"), 1);
  EXPECT_EQ(phones_in_position_order().size(), 99u);
}

} // namespace
} // namespace vcs::storage
