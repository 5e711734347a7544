// A bulk add's first two chunks inserted on connections of their own while
// the job's transaction is still open (storage::import_parallel_chunk):
// each completes only after that transaction commits, and otherwise gives
// its chunk to the ordinary import, so every row goes in exactly once and
// in request order.
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

class parallel_chunks_test : public ::testing::Test {
protected:
  void SetUp() override {
    migrate(*job_tx);
    tenant = insert_tenant(*job_tx, "parallel chunks", domain::plan::pro, std::nullopt).id;
    domain::campaign_fields fields;
    fields.name = "parallel chunks";
    campaign = insert_campaign(*job_tx, tenant, fields).id;
  }

  static std::string phone(int i) { return "+1415555" + std::to_string(2000 + i); }

  static std::vector<std::string> phones(std::initializer_list<int> items) {
    std::vector<std::string> out;
    for (int i : items)
      out.push_back(phone(i));
    return out;
  }

  // Seven rows, items 0-6: chunks of rows 0-2 and 3-5 (inserted in
  // parallel) and of row 6 (imported the ordinary way).
  const domain::bulk_import bulk = [] {
    domain::bulk_import b;
    b.rows =
        test::leads_with({phone(0), phone(1), phone(2), phone(3), phone(4), phone(5), phone(6)});
    for (int32_t i = 0; i < 7; ++i)
      b.row_index.push_back(i);
    b.accepted = 7;
    return b;
  }();

  // The job's transaction up to its commit; answers where the parallel
  // chunks go.
  std::vector<parallel_chunk> store_job() {
    EXPECT_TRUE(begin_locking_campaign(*job_tx, tenant, campaign));
    std::vector<parallel_chunk> chunks;
    job = insert_import_job(*job_tx, tenant, campaign, bulk, chunk_size, "node-a",
                            [&](const parallel_chunk& at) { chunks.push_back(at); })
              .job_id;
    EXPECT_EQ(chunks.size(), 2u);
    chunks.resize(2);
    return chunks;
  }

  // A parallel chunk's own transaction, committed when it completed the
  // chunk: whether rows are left, nullopt when it gave the chunk up, or
  // the error it stopped on.
  struct outcome {
    std::optional<bool> left;
    std::string error;
  };
  outcome run_parallel(soci::session& sql, const parallel_chunk& at) {
    outcome out;
    try {
      soci::transaction tx{sql};
      out.left = import_parallel_chunk(sql, tenant, campaign, bulk, at, 250ms);
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
      auto counts = import_leads(*sql, tenant, campaign, job, chunk->first_index, chunk->count,
                                 chunk->first_position);
      complete_import_chunk(*sql, job, *chunk, counts);
      sql->commit();
    }
  }

  std::vector<std::string> phones_in_position_order() {
    return test::phones_in_position_order(*check, campaign);
  }
  std::vector<int> rejected_indexes() { return test::rejected_indexes(*check, job); }
  long long lead_count() { return test::lead_count(*check, campaign); }

  domain::import_job progress() {
    return find_import_job(*check, tenant, campaign, job).value_or(domain::import_job{});
  }

  // One lead the campaign already has (number i), as a committed single add.
  void existing_lead(int i) {
    session_here sql;
    ASSERT_TRUE(begin_locking_campaign(*sql, tenant, campaign));
    ASSERT_EQ(insert_leads(*sql, tenant, campaign, test::leads_with({phone(i)})).inserted, 1);
    sql->commit();
  }

  session_here job_tx;
  session_here first_tx; // each used on one thread at a time
  session_here second_tx;
  session_here check;
  int64_t tenant = 0;
  int64_t campaign = 0;
  int64_t job = 0;
};

// The chunks' transactions wait for the job's: run before the job commits,
// they can complete their chunks only because they waited (the job is not
// visible before). Rows the campaign had are the job's rejections, in
// either chunk; each chunk sits in blocks of its own, in request order.
TEST_F(parallel_chunks_test, complete_their_chunks_once_the_job_commits) {
  existing_lead(1);
  existing_lead(4);
  const auto at = store_job();
  EXPECT_EQ(at[0].first_index, 0);
  EXPECT_EQ(at[1].first_index, 3);
  EXPECT_EQ(at[1].count, 3);
  EXPECT_EQ(at[0].first_position, domain::lead_block_size);
  EXPECT_EQ(at[1].first_position, 2 * domain::lead_block_size);
  outcome first, second;
  std::thread a{[&] { first = run_parallel(*first_tx, at[0]); }};
  std::thread b{[&] { second = run_parallel(*second_tx, at[1]); }};
  std::this_thread::sleep_for(50ms); // lets them insert and wait, as in the service
  job_tx->commit();
  a.join();
  b.join();
  ASSERT_EQ(first.error, "");
  ASSERT_EQ(second.error, "");
  ASSERT_TRUE(first.left && second.left);
  EXPECT_TRUE(*first.left && *second.left) << "the seventh row is still stored";

  EXPECT_EQ(phones_in_position_order(), phones({1, 4, 0, 2, 3, 5}));
  EXPECT_EQ(lead_count(), 6);
  EXPECT_EQ(rejected_indexes(), (std::vector<int>{1, 4}));
  EXPECT_EQ(progress().inserted, 4);
  EXPECT_EQ(progress().duplicates, 2);
  EXPECT_EQ(progress().pending, 1);

  import_rest();
  EXPECT_EQ(phones_in_position_order(), phones({1, 4, 0, 2, 3, 5, 6}));
  EXPECT_EQ(lead_count(), 7);
  EXPECT_EQ(progress().status, "done");
  EXPECT_EQ(progress().inserted, 5);
  EXPECT_EQ(progress().pending, 0);
}

// A job's transaction that rolls back takes its chunks with it.
TEST_F(parallel_chunks_test, give_up_when_the_job_rolls_back) {
  const auto at = store_job();
  outcome first, second;
  std::thread a{[&] { first = run_parallel(*first_tx, at[0]); }};
  std::thread b{[&] { second = run_parallel(*second_tx, at[1]); }};
  std::this_thread::sleep_for(50ms);
  job_tx->rollback();
  a.join();
  b.join();
  EXPECT_EQ(first.error + second.error, "");
  EXPECT_FALSE(first.left);
  EXPECT_FALSE(second.left);
  EXPECT_TRUE(phones_in_position_order().empty());
  EXPECT_EQ(lead_count(), 0);
}

// The ordinary import got to the chunks first, at their reserved
// positions: the chunks' own transactions insert and complete nothing.
TEST_F(parallel_chunks_test, leave_chunks_the_ordinary_import_took) {
  const auto at = store_job();
  job_tx->commit();
  import_rest();
  EXPECT_EQ(phones_in_position_order(), phones({0, 1, 2, 3, 4, 5, 6}));
  for (const auto& chunk : at) {
    const auto out = run_parallel(*first_tx, chunk);
    EXPECT_EQ(out.error, "");
    EXPECT_FALSE(out.left);
  }
  EXPECT_EQ(phones_in_position_order(), phones({0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(lead_count(), 7);
  EXPECT_TRUE(rejected_indexes().empty());
  EXPECT_EQ(progress().inserted, 7);
  EXPECT_EQ(progress().duplicates, 0);
}

// Only the second chunk's transaction ran (the node stopped before the
// first's): the ordinary import puts the first chunk at its reserved
// positions, so the rows still list in request order.
TEST_F(parallel_chunks_test, a_chunk_left_behind_keeps_its_place) {
  const auto at = store_job();
  job_tx->commit();
  const auto second = run_parallel(*second_tx, at[1]);
  ASSERT_EQ(second.error, "");
  ASSERT_TRUE(second.left);
  EXPECT_EQ(progress().pending, 4);
  import_rest();
  EXPECT_EQ(phones_in_position_order(), phones({0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(lead_count(), 7);
  EXPECT_EQ(progress().status, "done");
  EXPECT_EQ(progress().inserted, 7);
}

// A writer holding the campaign's row adds a number of a parallel chunk
// while that chunk's transaction is under way. Whichever of the two gets
// to the number first, neither waits for good: the writer's lead goes in,
// and the chunk (completed, or given up and imported the ordinary way)
// counts the number as already in the campaign.
TEST_F(parallel_chunks_test, a_writer_on_the_campaign_and_a_chunk_never_deadlock) {
  const auto at = store_job();
  job_tx->commit();
  session_here writer;
  ASSERT_TRUE(begin_locking_campaign(*writer, tenant, campaign));
  outcome second;
  std::thread b{[&] { second = run_parallel(*second_tx, at[1]); }};
  std::this_thread::sleep_for(50ms); // the chunk's rows are most likely in by now
  EXPECT_EQ(insert_leads(*writer, tenant, campaign, test::leads_with({phone(4)})).inserted, 1);
  writer->commit();
  b.join();
  if (!second.left) {
    EXPECT_NE(second.error.find("lock"), std::string::npos) << second.error;
  }
  import_rest();
  const auto listed = phones_in_position_order();
  EXPECT_EQ(listed.size(), 7u);
  EXPECT_EQ(std::count(listed.begin(), listed.end(), phone(4)), 1);
  EXPECT_EQ(lead_count(), 7);
  EXPECT_EQ(rejected_indexes(), (std::vector<int>{4}));
  EXPECT_EQ(progress().status, "done");
  EXPECT_EQ(progress().inserted, 6);
  EXPECT_EQ(progress().duplicates, 1);
}

} // namespace
} // namespace vcs::storage
