// A bulk add's second chunk inserted on a connection of its own while the
// job's transaction is still open (storage::import_second_chunk): it
// completes only after that transaction commits, and otherwise gives the
// chunk to the ordinary import, so every row goes in exactly once.
#include "domain/lead.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/database.hpp"
#include "storage/import_job_repository.hpp"
#include "storage/lead_repository.hpp"
#include "storage/migrations.hpp"
#include "storage/prepared.hpp"
#include "storage/tenant_repository.hpp"

#include "leads_with.hpp"
#include "service_process.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace vcs::storage {
namespace {

using test::database_url;
using namespace std::chrono_literals;

constexpr int32_t chunk_size = 3;

// A session whose prepared statements this thread's cache does not list
// from an earlier session at the same address (it forgets them when the
// session opens and when it closes), so that a statement run inside a
// transaction is prepared first.
class session_here {
public:
  session_here() { forget_prepared_statements(*sql_); }
  session_here(const session_here&) = delete;
  session_here& operator=(const session_here&) = delete;
  ~session_here() { forget_prepared_statements(*sql_); }
  soci::session& operator*() const { return *sql_; }
  soci::session* operator->() const { return sql_.get(); }

private:
  std::unique_ptr<soci::session> sql_ = open_session(database_url());
};

class second_chunk_test : public ::testing::Test {
protected:
  void SetUp() override {
    migrate(*job_tx);
    tenant = insert_tenant(*job_tx, "second chunk", domain::plan::pro, std::nullopt).id;
    domain::campaign_fields fields;
    fields.name = "second chunk";
    campaign = insert_campaign(*job_tx, tenant, fields).id;
  }

  static std::string phone(int i) { return "+1415555" + std::to_string(2000 + i); }

  // Seven rows, items 0-6: chunks of rows 0-2 (inserted with the job), 3-5
  // (the second chunk) and 6 (stored).
  domain::bulk_import seven_rows() const {
    domain::bulk_import b;
    b.rows =
        test::leads_with({phone(0), phone(1), phone(2), phone(3), phone(4), phone(5), phone(6)});
    for (int32_t i = 0; i < 7; ++i)
      b.row_index.push_back(i);
    b.accepted = 7;
    return b;
  }

  // The job's transaction up to its commit; answers where the second
  // chunk goes.
  second_chunk store_job(const domain::bulk_import& bulk) {
    EXPECT_TRUE(begin_locking_campaign(*job_tx, tenant, campaign));
    std::optional<second_chunk> second;
    job = insert_import_job(*job_tx, tenant, campaign, bulk, chunk_size, "node-a",
                            [&](const second_chunk& at) { second = at; })
              .job_id;
    EXPECT_TRUE(second);
    return second.value_or(second_chunk{});
  }

  // The second chunk's own transaction, committed when it completed the
  // chunk: whether rows are left, nullopt when it gave the chunk up, or
  // the error it stopped on.
  struct second_outcome {
    std::optional<bool> left;
    std::string error;
  };
  second_outcome run_second(const domain::bulk_import& bulk, const second_chunk& at) {
    second_outcome out;
    try {
      soci::transaction tx{*second_tx};
      out.left = import_second_chunk(*second_tx, tenant, campaign, bulk, at, 250ms);
      if (out.left)
        tx.commit();
    } catch (const std::exception& e) {
      out.error = e.what();
    }
    return out;
  }

  // The rest of the job, imported the ordinary way.
  void import_rest() {
    session_here sql;
    while (true) {
      EXPECT_TRUE(begin_locking_campaign(*sql, tenant, campaign));
      auto chunk = claim_import_chunk(*sql, job, "node-a", 30);
      if (!chunk || chunk->count == 0) {
        sql->rollback();
        return;
      }
      auto counts = import_leads(*sql, tenant, campaign, job, chunk->first_index, chunk->count);
      complete_import_chunk(*sql, job, *chunk, counts);
      sql->commit();
    }
  }

  std::vector<std::string> phones_in_position_order() {
    std::vector<std::string> out(32);
    *check << "SELECT phone_number FROM leads WHERE campaign_id = :c ORDER BY position",
        soci::use(campaign), soci::into(out);
    return out;
  }

  std::vector<int> rejected_indexes() {
    std::vector<int> out(32);
    *check << "SELECT row_index FROM lead_import_rejections WHERE job_id = :j ORDER BY row_index",
        soci::use(job), soci::into(out);
    return out;
  }

  long long lead_count() {
    long long n = -1;
    *check << "SELECT lead_count FROM campaigns WHERE id = :c", soci::use(campaign), soci::into(n);
    return n;
  }

  // One lead the campaign already has (number i), as a committed single add.
  void existing_lead(int i) {
    session_here sql;
    ASSERT_TRUE(begin_locking_campaign(*sql, tenant, campaign));
    ASSERT_EQ(insert_leads(*sql, tenant, campaign, test::leads_with({phone(i)})).inserted, 1);
    sql->commit();
  }

  session_here job_tx;
  session_here second_tx; // used on one other thread, or on this one
  session_here check;
  int64_t tenant = 0;
  int64_t campaign = 0;
  int64_t job = 0;
};

// The second chunk's transaction waits for the job's: run before the job
// commits, it can complete the chunk only because it waited (the job is not
// visible before). Rows the campaign had are the job's rejections, in
// either chunk; the second chunk sits in blocks of its own, after the first.
TEST_F(second_chunk_test, completes_the_chunk_once_the_job_commits) {
  existing_lead(1);
  existing_lead(4);
  const auto bulk = seven_rows();
  const auto at = store_job(bulk);
  EXPECT_EQ(at.first_index, 3);
  EXPECT_EQ(at.count, 3);
  EXPECT_EQ(at.first_position % domain::lead_block_size, 0);
  EXPECT_GT(at.first_position, 0);
  second_outcome second;
  std::thread t2{[&] { second = run_second(bulk, at); }};
  std::this_thread::sleep_for(50ms); // lets it insert and wait, as it would in the service
  job_tx->commit();
  t2.join();
  ASSERT_EQ(second.error, "");
  ASSERT_TRUE(second.left);
  EXPECT_TRUE(*second.left) << "the seventh row is still stored";

  EXPECT_EQ(phones_in_position_order(),
            (std::vector<std::string>{phone(1), phone(4), phone(0), phone(2), phone(3), phone(5)}));
  EXPECT_EQ(lead_count(), 6);
  EXPECT_EQ(rejected_indexes(), (std::vector<int>{1, 4}));
  auto progress = find_import_job(*check, tenant, campaign, job);
  ASSERT_TRUE(progress);
  EXPECT_EQ(progress->inserted, 4);
  EXPECT_EQ(progress->duplicates, 2);
  EXPECT_EQ(progress->pending, 1);

  import_rest();
  EXPECT_EQ(phones_in_position_order().back(), phone(6));
  EXPECT_EQ(lead_count(), 7);
  progress = find_import_job(*check, tenant, campaign, job);
  EXPECT_EQ(progress->status, "done");
  EXPECT_EQ(progress->inserted, 5);
  EXPECT_EQ(progress->pending, 0);
}

// A job's transaction that rolls back takes its second chunk with it.
TEST_F(second_chunk_test, gives_up_when_the_job_rolls_back) {
  const auto bulk = seven_rows();
  const auto at = store_job(bulk);
  second_outcome second;
  std::thread t2{[&] { second = run_second(bulk, at); }};
  std::this_thread::sleep_for(50ms);
  job_tx->rollback();
  t2.join();
  EXPECT_EQ(second.error, "");
  EXPECT_FALSE(second.left);
  EXPECT_TRUE(phones_in_position_order().empty());
  EXPECT_EQ(lead_count(), 0);
}

// The ordinary import got to the chunk first: the second chunk's
// transaction inserts nothing and completes nothing.
TEST_F(second_chunk_test, leaves_a_chunk_the_ordinary_import_took) {
  const auto bulk = seven_rows();
  const auto at = store_job(bulk);
  job_tx->commit();
  import_rest();
  const auto before = phones_in_position_order();
  ASSERT_EQ(before.size(), 7u);
  const auto second = run_second(bulk, at);
  EXPECT_EQ(second.error, "");
  EXPECT_FALSE(second.left);
  EXPECT_EQ(phones_in_position_order(), before);
  EXPECT_EQ(lead_count(), 7);
  EXPECT_TRUE(rejected_indexes().empty());
  auto progress = find_import_job(*check, tenant, campaign, job);
  EXPECT_EQ(progress->inserted, 7);
  EXPECT_EQ(progress->duplicates, 0);
}

// A writer holding the campaign's row adds a number of the second chunk
// while that chunk's transaction is under way. Whichever of the two gets
// to the number first, neither waits for good: the writer's lead goes in,
// and the chunk (completed, or given up and imported the ordinary way)
// counts the number as already in the campaign.
TEST_F(second_chunk_test, a_writer_on_the_campaign_and_the_chunk_never_deadlock) {
  const auto bulk = seven_rows();
  const auto at = store_job(bulk);
  job_tx->commit();
  session_here writer;
  ASSERT_TRUE(begin_locking_campaign(*writer, tenant, campaign));
  second_outcome second;
  std::thread t2{[&] { second = run_second(bulk, at); }};
  std::this_thread::sleep_for(50ms); // the chunk's rows are most likely in by now
  EXPECT_EQ(insert_leads(*writer, tenant, campaign, test::leads_with({phone(4)})).inserted, 1);
  writer->commit();
  t2.join();
  if (!second.left) {
    EXPECT_NE(second.error.find("lock"), std::string::npos) << second.error;
  }
  import_rest();
  const auto phones = phones_in_position_order();
  EXPECT_EQ(phones.size(), 7u);
  EXPECT_EQ(std::count(phones.begin(), phones.end(), phone(4)), 1);
  EXPECT_EQ(lead_count(), 7);
  EXPECT_EQ(rejected_indexes(), (std::vector<int>{4}));
  auto progress = find_import_job(*check, tenant, campaign, job);
  EXPECT_EQ(progress->status, "done");
  EXPECT_EQ(progress->inserted, 6);
  EXPECT_EQ(progress->duplicates, 1);
}

} // namespace
} // namespace vcs::storage
