// Group commit, step by step: CAF's test coordinator runs every actor on
// this thread, one message at a time, and a dispatcher stand-in runs each
// batch at once on a real PostgreSQL session. Which writes share a
// transaction is then decided by message order alone, not by timing.

#include "actors/actor_error.hpp"
#include "actors/db_pool.hpp"
#include "actors/group_commit.hpp"
#include "storage/database.hpp"
#include "storage/storage_error.hpp"

#include "service_process.hpp"
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/scheduler/test_coordinator.hpp>
#include <caf/stateful_actor.hpp>

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace vcs::actors {
namespace {

using test::database_url;

// Runs each batch as soon as it is scheduled, on the test's session, and
// answers as a database worker would.
db_dispatcher_actor::behavior_type inline_dispatcher(db_dispatcher_actor::pointer self,
                                                     soci::session* sql) {
  return {
      [self, sql](db_task& task) -> caf::result<db_result> {
        try {
          return db_result{task.run(*sql)};
        } catch (const std::exception& e) {
          return make_error(storage::translate(e));
        }
      },
      [](done_atom, std::size_t, std::uint64_t) {},
      [](tick_atom) {},
  };
}

// What the writer's callbacks saw, in order.
struct log {
  std::vector<std::pair<std::string, std::optional<domain::error>>> answers;
  int refused_batches = 0;
};

struct writer_state {
  writer_state() = default;
  group_commit writes;
};

// How a write ends after storing its tag: committed, failing in the
// database, or answering an error value.
enum class ending : int { commit, fail, refuse };

struct write_mark {
  std::string tag;
  ending end = ending::commit;
};

// Each message is one write: it stores its tag with its transaction's id,
// then ends as asked.
caf::behavior writer(caf::stateful_actor<writer_state>* self, std::shared_ptr<db_pool> pool,
                     std::shared_ptr<log> out, std::size_t max_batch, bool refuse) {
  auto& w = self->state.writes;
  w.set_max_batch(max_batch);
  // A prologue starts the batch's transaction, as an entity's row lock does.
  w.set_prologue([refuse](soci::session& s) -> std::optional<domain::error> {
    s.begin();
    if (refuse)
      return domain::not_found("Entity not found");
    return std::nullopt;
  });
  w.set_on_refused([out] { ++out->refused_batches; });
  return {
      [=](const std::string& tag, int end) {
        self->state.writes.run(
            self, *pool,
            [tag, end = ending{end}](soci::session& s) -> domain::result<bool> {
              s << "INSERT INTO group_commit_marks (tag, tx) VALUES (:t, txid_current())",
                  soci::use(tag);
              // An unexpected failure (undefined_table): a bug, not a value
              // the request carried, which would be a 400 (class 22).
              if (end == ending::fail)
                s << "SELECT * FROM group_commit_no_such_table";
              if (end == ending::refuse)
                return domain::error{domain::errc::conflict, "Refused: " + tag};
              return true;
            },
            [=](bool) { out->answers.emplace_back(tag, std::nullopt); },
            [=](const caf::error& e) { out->answers.emplace_back(tag, to_domain_error(e)); });
      },
  };
}

class group_commit_test : public ::testing::Test {
protected:
  group_commit_test() {
    sql = storage::open_session(database_url());
    *sql << "CREATE TABLE IF NOT EXISTS group_commit_marks (tag text NOT NULL, tx bigint NOT NULL)";
    *sql << "TRUNCATE group_commit_marks";
    cfg.set("scheduler.policy", caf::atom("testing"));
    cfg.set("logger.file-verbosity", caf::atom("quiet"));
    sys.emplace(cfg);
    sched = &dynamic_cast<caf::scheduler::test_coordinator&>(sys->scheduler());
    pool = std::make_shared<db_pool>(sys->spawn(inline_dispatcher, sql.get()),
                                     std::chrono::seconds(10));
  }

  ~group_commit_test() override {
    for (auto& w : writers)
      caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
    pool->shutdown();
    sched->run();
  }

  caf::actor spawn_writer(std::size_t max_batch, bool refuse) {
    return writers.emplace_back(sys->spawn(writer, pool, out, max_batch, refuse));
  }

  // Sends every write first, then lets the actors run to the end.
  void write_all(const caf::actor& w, const std::vector<write_mark>& marks) {
    for (const auto& m : marks)
      caf::anon_send(w, m.tag, static_cast<int>(m.end));
    sched->run();
  }

  // The tags of each transaction, in commit order, and each tag's rows.
  std::vector<std::vector<std::string>> transactions() {
    std::map<long long, std::vector<std::string>> by_tx;
    soci::rowset<soci::row> rows =
        (sql->prepare << "SELECT tx, tag FROM group_commit_marks ORDER BY tx, tag");
    for (const auto& r : rows)
      by_tx[r.get<long long>(0)].push_back(r.get<std::string>(1));
    std::vector<std::vector<std::string>> out;
    for (auto& [tx, tags] : by_tx)
      out.push_back(std::move(tags));
    return out;
  }

  std::unique_ptr<soci::session> sql;
  caf::actor_system_config cfg;
  std::optional<caf::actor_system> sys;
  caf::scheduler::test_coordinator* sched = nullptr;
  std::shared_ptr<db_pool> pool;
  std::shared_ptr<log> out = std::make_shared<log>();
  std::vector<caf::actor> writers;
};

using batches = std::vector<std::vector<std::string>>;

TEST_F(group_commit_test, writes_queued_while_a_batch_runs_share_the_next_transaction) {
  auto w = spawn_writer(256, false);
  write_all(w, {{"a"}, {"b"}, {"c"}, {"d"}});
  EXPECT_EQ(transactions(), (batches{{"a"}, {"b", "c", "d"}}));
  ASSERT_EQ(out->answers.size(), 4u);
  for (const auto& [tag, error] : out->answers)
    EXPECT_FALSE(error) << tag;
}

TEST_F(group_commit_test, a_batch_never_exceeds_its_size) {
  auto w = spawn_writer(2, false);
  write_all(w, {{"a"}, {"b"}, {"c"}, {"d"}, {"e"}});
  EXPECT_EQ(transactions(), (batches{{"a"}, {"b", "c"}, {"d", "e"}}));
}

TEST_F(group_commit_test, a_failing_write_fails_alone_and_the_others_commit_once) {
  auto w = spawn_writer(256, false);
  write_all(w, {{"a"}, {"b"}, {"c", ending::fail}, {"d"}});
  EXPECT_EQ(transactions(), (batches{{"a"}, {"b", "d"}}));
  std::map<std::string, std::optional<domain::error>> by_tag(out->answers.begin(),
                                                             out->answers.end());
  ASSERT_EQ(by_tag.size(), 4u);
  EXPECT_FALSE(by_tag["a"]);
  EXPECT_FALSE(by_tag["b"]);
  EXPECT_FALSE(by_tag["d"]);
  ASSERT_TRUE(by_tag["c"]);
  EXPECT_EQ(by_tag["c"]->code, domain::errc::internal);
}

// An error value undoes what its write did, like a failure, and answers it.
TEST_F(group_commit_test, a_write_answering_an_error_is_undone_and_the_others_commit) {
  auto w = spawn_writer(256, false);
  write_all(w, {{"a", ending::refuse}, {"b"}, {"c", ending::refuse}, {"d"}});
  EXPECT_EQ(transactions(), (batches{{"b", "d"}}));
  std::map<std::string, std::optional<domain::error>> by_tag(out->answers.begin(),
                                                             out->answers.end());
  ASSERT_EQ(by_tag.size(), 4u);
  EXPECT_FALSE(by_tag["b"]);
  EXPECT_FALSE(by_tag["d"]);
  for (const char* tag : {"a", "c"}) {
    ASSERT_TRUE(by_tag[tag]) << tag;
    EXPECT_EQ(by_tag[tag]->code, domain::errc::conflict);
    EXPECT_EQ(by_tag[tag]->message, std::string{"Refused: "} + tag);
  }
}

TEST_F(group_commit_test, a_refusing_prologue_answers_every_write_and_runs_none) {
  auto w = spawn_writer(256, true);
  write_all(w, {{"a"}, {"b"}, {"c"}});
  EXPECT_TRUE(transactions().empty());
  ASSERT_EQ(out->answers.size(), 3u);
  for (const auto& [tag, error] : out->answers) {
    ASSERT_TRUE(error) << tag;
    EXPECT_EQ(error->code, domain::errc::not_found);
  }
  EXPECT_EQ(out->refused_batches, 2);
}

} // namespace
} // namespace vcs::actors
