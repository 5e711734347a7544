// Actors with a real actor system and the real database: the registry spawns
// tenant actors on demand and retires idle ones; the tenant actor serialises
// and group-commits concurrent writes.

#include "actors/campaign_actor.hpp"
#include "actors/db_pool.hpp"
#include "actors/db_worker.hpp"
#include "actors/group_commit.hpp"
#include "actors/registry.hpp"
#include "actors/tenant_actor.hpp"
#include "domain/api_key.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/database.hpp"
#include "storage/lead_repository.hpp"
#include "storage/migrations.hpp"
#include "storage/tenant_repository.hpp"

#include "leads_with.hpp"
#include "service_process.hpp"
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/scoped_actor.hpp>

#include <gtest/gtest.h>

#include <any>
#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <thread>
#include <type_traits>

namespace vcs::actors {
namespace {

// Under C++20 an aggregate state struct can be built from the self pointer
// (stack-notes trap 1); every state must have a user-declared constructor.
static_assert(!std::is_aggregate_v<db_worker_state>);
static_assert(!std::is_aggregate_v<tenant_state>);
static_assert(!std::is_aggregate_v<registry_state>);
static_assert(!std::is_aggregate_v<campaign_state>);
static_assert(!std::is_aggregate_v<idle_retirement>);
static_assert(!std::is_aggregate_v<entity_state>);

using test::database_url;

class actor_test : public ::testing::Test {
protected:
  actor_test() {
    domain::init_crypto();
    sql = storage::open_session(database_url());
    storage::migrate(*sql);
    pool =
        std::make_shared<db_pool>(db_pool::spawn(sys, database_url(), 2, std::chrono::seconds(10)));
  }
  ~actor_test() override { pool->shutdown(); }

  entity_config_ptr config_with_idle(std::chrono::milliseconds idle,
                                     std::chrono::milliseconds answer = std::chrono::seconds(30)) {
    auto c = std::make_shared<entity_config>();
    c->pool = pool;
    c->settings.idle_timeout = idle;
    c->max_write_wait = answer;
    c->node_id = "actor-test";
    return c;
  }

  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  std::unique_ptr<soci::session> sql;
  std::shared_ptr<db_pool> pool;
};

TEST_F(actor_test, fresh_tenant_state_reads_as_declared) {
  tenant_state st;
  EXPECT_EQ(st.tenant_id, 0);
  EXPECT_FALSE(st.idle.retiring);
  EXPECT_EQ(st.idle.timeout.count(), 0);
  EXPECT_FALSE(st.writes.busy());
}

TEST_F(actor_test, registry_spawns_once_and_retires_idle_tenant_actors) {
  auto reg = sys.spawn(registry, config_with_idle(std::chrono::milliseconds(100)));
  caf::scoped_actor self{sys};
  tenant_actor first;
  tenant_actor again;
  self->request(reg, std::chrono::seconds(5), caf::get_atom::value, tenant_atom::value, int64_t{1})
      .receive([&](tenant_actor& t) { first = t; }, [](caf::error& e) { FAIL() << to_string(e); });
  self->request(reg, std::chrono::seconds(5), caf::get_atom::value, tenant_atom::value, int64_t{1})
      .receive([&](tenant_actor& t) { again = t; }, [](caf::error& e) { FAIL() << to_string(e); });
  ASSERT_TRUE(first);
  EXPECT_EQ(first.address(), again.address());

  self->monitor(first);
  bool down = false;
  self->receive([&](caf::down_msg& msg) { down = msg.source == first.address(); },
                caf::after(std::chrono::seconds(5)) >> [] {});
  EXPECT_TRUE(down) << "idle tenant actor did not retire";

  tenant_actor fresh;
  self->request(reg, std::chrono::seconds(5), caf::get_atom::value, tenant_atom::value, int64_t{1})
      .receive([&](tenant_actor& t) { fresh = t; }, [](caf::error& e) { FAIL() << to_string(e); });
  EXPECT_NE(fresh.address(), first.address());
  self->send_exit(reg, caf::exit_reason::user_shutdown);
  self->send_exit(fresh, caf::exit_reason::user_shutdown);
}

TEST_F(actor_test, concurrent_writes_to_one_tenant_all_commit) {
  auto t = storage::insert_tenant(*sql, "actor test", domain::plan::pro, std::nullopt);
  auto reg = sys.spawn(registry, config_with_idle(std::chrono::minutes(5)));
  caf::scoped_actor self{sys};
  tenant_actor ta;
  self->request(reg, std::chrono::seconds(5), caf::get_atom::value, tenant_atom::value, t.id)
      .receive([&](tenant_actor& h) { ta = h; }, [](caf::error& e) { FAIL() << to_string(e); });

  constexpr int n = 40;
  for (int i = 0; i < n; ++i)
    self->send(ta, create_atom::value, api_key_request{"key-" + std::to_string(i)});
  // Replies of plain sends come back as messages to `self`.
  std::set<int64_t> ids;
  std::set<std::string> secrets;
  for (int i = 0; i < n; ++i)
    self->receive(
        [&](issued_api_key& k) {
          ids.insert(k.info.id);
          secrets.insert(k.key);
          EXPECT_EQ(k.info.tenant_id, t.id);
        },
        caf::after(std::chrono::seconds(10)) >> [] { FAIL() << "reply missing"; });
  EXPECT_EQ(ids.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(secrets.size(), static_cast<std::size_t>(n));
  long long stored = 0;
  *sql << "SELECT count(*) FROM api_keys WHERE tenant_id = :t", soci::use(t.id), soci::into(stored);
  EXPECT_EQ(stored, n);

  // A failing write in a batch does not undo the others.
  domain::tenant_patch rename;
  rename.name = "renamed";
  self->send(ta, delete_atom::value, api_key_removal{999'999'999});
  self->send(ta, update_atom::value, rename);
  bool delete_failed = false;
  bool renamed = false;
  for (int i = 0; i < 2; ++i)
    self->receive(
        [&](domain::tenant& updated) { renamed = updated.name == "renamed"; }, [&](bool) {},
        [&](caf::error& e) { delete_failed = to_domain_error(e).code == domain::errc::not_found; },
        caf::after(std::chrono::seconds(10)) >> [] {});
  EXPECT_TRUE(delete_failed);
  EXPECT_TRUE(renamed);
  self->send_exit(reg, caf::exit_reason::user_shutdown);
  self->send_exit(ta, caf::exit_reason::user_shutdown);
}

TEST_F(actor_test, a_campaign_actor_for_a_made_up_id_answers_404_and_retires) {
  auto t = storage::insert_tenant(*sql, "made-up campaign", domain::plan::pro, std::nullopt);
  auto reg = sys.spawn(registry, config_with_idle(std::chrono::minutes(5)));
  caf::scoped_actor self{sys};
  campaign_actor ca;
  self->request(reg, std::chrono::seconds(5), caf::get_atom::value, campaign_atom::value, t.id,
                int64_t{987'654'321})
      .receive([&](campaign_actor& c) { ca = c; }, [](caf::error& e) { FAIL() << to_string(e); });
  ASSERT_TRUE(ca);
  self->monitor(ca);
  lead_updates updates;
  updates.items.emplace_back().phone_number = "+14155550100";
  self->request(ca, std::chrono::seconds(10), update_atom::value, updates)
      .receive([](lead_outcomes&) { FAIL() << "a write to a made-up campaign ran"; },
               [](caf::error& e) {
                 auto err = to_domain_error(e);
                 EXPECT_EQ(err.code, domain::errc::not_found);
                 EXPECT_EQ(err.message, "Campaign not found");
               });
  bool down = false;
  self->receive([&](caf::down_msg& msg) { down = msg.source == ca.address(); },
                caf::after(std::chrono::seconds(5)) >> [] {});
  EXPECT_TRUE(down) << "the actor of a campaign that does not exist stayed";
  self->send_exit(reg, caf::exit_reason::user_shutdown);
}

// Lead updates that queue behind a write in flight share one write; each
// request still gets its own outcomes, every number's items apply in the
// order sent, and a write queued between two updates keeps its place.
TEST_F(actor_test, queued_lead_updates_share_a_write_in_the_order_they_came) {
  auto t = storage::insert_tenant(*sql, "merged updates", domain::plan::pro, std::nullopt);
  domain::campaign_fields fields;
  fields.name = "merged updates";
  auto c = storage::insert_campaign(*sql, t.id, fields);
  storage::insert_leads(*sql, t.id, c.id, test::leads_with({"+14155550101", "+14155550102"}));
  auto reg = sys.spawn(registry, config_with_idle(std::chrono::minutes(5)));
  caf::scoped_actor self{sys};
  campaign_actor ca;
  self->request(reg, std::chrono::seconds(5), caf::get_atom::value, campaign_atom::value, t.id,
                c.id)
      .receive([&](campaign_actor& h) { ca = h; }, [](caf::error& e) { FAIL() << to_string(e); });
  auto update = [](std::string phone, std::optional<std::string> first,
                   std::optional<std::string> last = std::nullopt) {
    domain::lead_update u;
    u.phone_number = std::move(phone);
    u.first_name = std::move(first);
    u.last_name = std::move(last);
    return u;
  };
  using domain::lead_outcome;
  {
    // The first write waits for the campaign's row lock while the rest queue.
    soci::transaction holding{*sql};
    *sql << "SELECT id FROM campaigns WHERE id = :c FOR UPDATE", soci::use(c.id);
    self->send(ca, update_atom::value, lead_updates{{update("+14155550101", "a")}});
    self->send(ca, update_atom::value, lead_updates{{update("+14155550101", "b")}});
    self->send(ca, update_atom::value,
               lead_updates{
                   {update("+14155550102", std::nullopt, "c"), update("+14155550199", "nobody")}});
    lead_removals removal;
    removal.items.push_back({std::nullopt, "+14155550102"});
    self->send(ca, delete_atom::value, removal);
    self->send(ca, update_atom::value, lead_updates{{update("+14155550102", "e")}});
    self->send(ca, update_atom::value, lead_updates{{update("+14155550101", "f")}});
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    holding.commit();
  }
  const std::vector<std::vector<lead_outcome>> expected{
      {lead_outcome::done},
      {lead_outcome::done},
      {lead_outcome::done, lead_outcome::not_found},
      {lead_outcome::done},
      // After the removal queued before it: the lead is gone.
      {lead_outcome::not_found},
      {lead_outcome::done}};
  for (const auto& want : expected)
    self->receive([&](lead_outcomes& got) { EXPECT_EQ(got.items, want); },
                  [](caf::error& e) { FAIL() << to_string(e); },
                  caf::after(std::chrono::seconds(10)) >> [] { FAIL() << "reply missing"; });
  std::string first_name;
  *sql << "SELECT first_name FROM leads WHERE campaign_id = :c AND phone_number = '+14155550101'",
      soci::use(c.id), soci::into(first_name);
  EXPECT_EQ(first_name, "f");
  long long second = -1;
  *sql << "SELECT count(*) FROM leads WHERE campaign_id = :c AND phone_number = '+14155550102'",
      soci::use(c.id), soci::into(second);
  EXPECT_EQ(second, 0);
  self->send_exit(reg, caf::exit_reason::user_shutdown);
  self->send_exit(ca, caf::exit_reason::user_shutdown);
}

// A campaign of `n` leads and its actor, for the bulk removal tests.
class removal_test : public actor_test {
protected:
  // The i-th lead's phone number.
  static std::string phone(int i) { return "+1628" + std::to_string(1'000'000 + i); }

  void start(const std::string& name, int n,
             std::chrono::milliseconds answer_deadline = std::chrono::seconds(30)) {
    auto t = storage::insert_tenant(*sql, name, domain::plan::pro, std::nullopt);
    domain::campaign_fields fields;
    fields.name = name;
    campaign_id = storage::insert_campaign(*sql, t.id, fields).id;
    std::vector<domain::lead_input> rows(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
      rows[static_cast<std::size_t>(i)].phone_number = phone(i);
    storage::insert_leads(*sql, t.id, campaign_id, rows);
    reg = sys.spawn(registry, config_with_idle(std::chrono::minutes(5), answer_deadline));
    self->request(reg, std::chrono::seconds(5), caf::get_atom::value, campaign_atom::value, t.id,
                  campaign_id)
        .receive([&](campaign_actor& h) { ca = h; }, [](caf::error& e) { FAIL() << to_string(e); });
    for (int i = 0; i < n; ++i)
      removal.items.push_back({std::nullopt, phone(i)});
  }

  long long leads_left() {
    long long n = -1;
    *sql << "SELECT count(*) FROM leads WHERE campaign_id = :c", soci::use(campaign_id),
        soci::into(n);
    return n;
  }

  ~removal_test() override {
    self->send_exit(reg, caf::exit_reason::user_shutdown);
    self->send_exit(ca, caf::exit_reason::user_shutdown);
  }

  caf::scoped_actor self{sys};
  int64_t campaign_id = 0;
  registry_actor reg;
  campaign_actor ca;
  // Every lead of the campaign, in order.
  lead_removals removal;
};

// A bulk removal runs in transactions of lead_removal_chunk_items items, one
// after another: a write queued while the first runs goes between them, and
// a later item naming a lead an earlier transaction removed finds it gone.
TEST_F(removal_test, runs_in_bounded_transactions_that_other_writes_go_between) {
  constexpr int n = 2'500;
  static_assert(n > 2 * domain::lead_removal_chunk_items);
  start("chunked removal", n);
  // In the second transaction, naming a lead the first one removed.
  const std::size_t repeat_at = domain::lead_removal_chunk_items + 10;
  removal.items.insert(removal.items.begin() + repeat_at, {std::nullopt, phone(0)});
  domain::lead_update update;
  update.phone_number = phone(n - 1);
  update.first_name = "between";
  {
    // The first transaction waits for the campaign's row lock while the
    // update queues behind it.
    soci::transaction holding{*sql};
    *sql << "SELECT id FROM campaigns WHERE id = :c FOR UPDATE", soci::use(campaign_id);
    self->send(ca, delete_atom::value, removal);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    self->send(ca, update_atom::value, lead_updates{{update}});
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    holding.commit();
  }
  using domain::lead_outcome;
  // The update ran between the removal's transactions, before its lead went.
  self->receive([&](lead_outcomes& got) { EXPECT_EQ(got.items, std::vector{lead_outcome::done}); },
                [](caf::error& e) { FAIL() << to_string(e); },
                caf::after(std::chrono::seconds(20)) >> [] { FAIL() << "update reply missing"; });
  std::vector<lead_outcome> expected(removal.items.size(), lead_outcome::done);
  expected[repeat_at] = lead_outcome::not_found;
  self->receive([&](lead_outcomes& got) { EXPECT_EQ(got.items, expected); },
                [](caf::error& e) { FAIL() << to_string(e); },
                caf::after(std::chrono::seconds(20)) >> [] { FAIL() << "removal reply missing"; });
  EXPECT_EQ(leads_left(), 0);
}

// No transaction of a bulk removal starts after the request's answer
// deadline: what committed answers, the rest is not_run.
TEST_F(removal_test, starts_no_transaction_past_the_answer_deadline) {
  constexpr int n = 2'500;
  start("removal past its deadline", n, std::chrono::milliseconds(300));
  {
    // The first transaction commits only after the deadline has passed.
    soci::transaction holding{*sql};
    *sql << "SELECT id FROM campaigns WHERE id = :c FOR UPDATE", soci::use(campaign_id);
    self->send(ca, delete_atom::value, removal);
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    holding.commit();
  }
  using domain::lead_outcome;
  std::vector<lead_outcome> expected(n, lead_outcome::not_run);
  std::fill_n(expected.begin(), domain::lead_removal_chunk_items, lead_outcome::done);
  self->receive([&](lead_outcomes& got) { EXPECT_EQ(got.items, expected); },
                [](caf::error& e) { FAIL() << to_string(e); },
                caf::after(std::chrono::seconds(20)) >> [] { FAIL() << "removal reply missing"; });
  EXPECT_EQ(leads_left(), n - static_cast<long long>(domain::lead_removal_chunk_items));
}

// When a later transaction of a bulk removal fails, the earlier ones stay
// committed and answer; the items not reached answer not_run.
TEST_F(removal_test, cut_short_it_answers_what_committed_and_what_did_not_run) {
  constexpr int n = 1'500;
  start("removal cut short", n);
  // The database refuses to delete one lead of the second transaction.
  *sql << "CREATE OR REPLACE FUNCTION actor_test_refuse_delete() RETURNS trigger "
          "LANGUAGE plpgsql AS $$ BEGIN IF OLD.phone_number = '" +
              phone(1'200) +
              "' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN OLD; END $$";
  *sql << "CREATE OR REPLACE TRIGGER actor_test_refuse_delete BEFORE DELETE ON leads "
          "FOR EACH ROW EXECUTE FUNCTION actor_test_refuse_delete()";
  using domain::lead_outcome;
  std::vector<lead_outcome> expected(n, lead_outcome::not_run);
  std::fill_n(expected.begin(), domain::lead_removal_chunk_items, lead_outcome::done);
  self->request(ca, std::chrono::seconds(20), delete_atom::value, removal)
      .receive([&](lead_outcomes& got) { EXPECT_EQ(got.items, expected); },
               [](caf::error& e) { FAIL() << to_string(e); });
  *sql << "DROP TRIGGER actor_test_refuse_delete ON leads";
  *sql << "DROP FUNCTION actor_test_refuse_delete()";
  EXPECT_EQ(leads_left(), n - static_cast<long long>(domain::lead_removal_chunk_items));
}

// Marks written by the tests below, each tagged with a run-unique prefix.
class marks_test : public actor_test {
protected:
  marks_test() {
    *sql << "CREATE TABLE IF NOT EXISTS actor_test_writes (tag text NOT NULL, "
            "at timestamptz NOT NULL DEFAULT clock_timestamp())";
    prefix = "run-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  }

  // Sleeps `sleep_ms`, writes a mark `tag`, then fails when asked to; its
  // value is the tag.
  db_task marking(const std::string& tag, int sleep_ms, bool fail, std::uint64_t owner) const {
    return db_task{[tag, full = prefix + tag, sleep_ms, fail](soci::session& s) -> std::any {
                     const double seconds = sleep_ms / 1000.0; // soci binds by reference
                     if (sleep_ms > 0)
                       s << "SELECT pg_sleep(:s)", soci::use(seconds);
                     s << "INSERT INTO actor_test_writes (tag) VALUES (:t)", soci::use(full);
                     if (fail)
                       s << "SELECT 1 / 0";
                     return tag;
                   },
                   owner};
  }

  long long marks(const std::string& tag) {
    // A named string: SOCI binds by reference until the statement runs.
    const auto tagged = prefix + tag;
    long long n = 0;
    *sql << "SELECT count(*) FROM actor_test_writes WHERE tag = :t", soci::use(tagged),
        soci::into(n);
    return n;
  }

  // The tags written, in the order they were written.
  std::vector<std::string> written() {
    const auto pattern = prefix + "%";
    std::vector<std::string> tags(100);
    *sql << "SELECT substr(tag, :n) FROM actor_test_writes WHERE tag LIKE :p ORDER BY at",
        soci::use(static_cast<int>(prefix.size() + 1)), soci::use(pattern), soci::into(tags);
    return tags;
  }

  std::string prefix;
};

struct committer_state {
  committer_state() = default;
  group_commit writes;
};

// Runs each marking task it is sent through group commit and tells `test`
// the tag and whether it committed.
caf::behavior committer(caf::stateful_actor<committer_state>* self, std::shared_ptr<db_pool> pool,
                        caf::actor test, std::chrono::milliseconds max_wait) {
  self->state.writes.set_max_wait(max_wait);
  return {
      [=](db_task& task, const std::string& tag) {
        self->state.writes.run(
            self, *pool,
            [run = std::move(task.run)](soci::session& s) {
              run(s);
              return true;
            },
            [=](bool) { self->send(test, tag, true); },
            [=](const caf::error&) { self->send(test, tag, false); });
      },
  };
}

TEST_F(marks_test, a_failing_write_in_a_batch_leaves_the_others_committed_once) {
  caf::scoped_actor self{sys};
  auto c = sys.spawn(committer, pool, caf::actor{self}, std::chrono::milliseconds{0});
  // The first write runs alone; the next three queue behind it and commit
  // as one batch, in which the middle one fails.
  self->send(c, marking("slow", 300, false, 0), std::string{"slow"});
  self->send(c, marking("a", 0, false, 0), std::string{"a"});
  self->send(c, marking("bad", 0, true, 0), std::string{"bad"});
  self->send(c, marking("b", 0, false, 0), std::string{"b"});
  std::map<std::string, bool> committed;
  for (int i = 0; i < 4; ++i)
    self->receive([&](const std::string& tag, bool ok) { committed[tag] = ok; },
                  caf::after(std::chrono::seconds(10)) >> [] { FAIL() << "reply missing"; });
  EXPECT_EQ(committed, (std::map<std::string, bool>{
                           {"slow", true}, {"a", true}, {"bad", false}, {"b", true}}));
  EXPECT_EQ(marks("slow"), 1);
  EXPECT_EQ(marks("a"), 1);
  EXPECT_EQ(marks("b"), 1);
  EXPECT_EQ(marks("bad"), 0);
  self->send_exit(c, caf::exit_reason::user_shutdown);
}

TEST_F(marks_test, a_tenant_with_a_backlog_does_not_hold_up_another_tenants_work) {
  caf::scoped_actor self{sys};
  // Two workers: tenant 1 queues four slow jobs, then tenant 2 one quick
  // one, which must not wait behind tenant 1's backlog.
  for (int i = 0; i < 4; ++i)
    self->send(pool->dispatcher(), marking("busy-" + std::to_string(i), 300, false, 1));
  self->send(pool->dispatcher(), marking("quick", 0, false, 2));
  // Each reply carries what its job returned.
  std::vector<std::string> replied;
  for (int i = 0; i < 5; ++i)
    self->receive([&](db_result& r) { replied.push_back(std::any_cast<std::string>(r.value)); },
                  caf::after(std::chrono::seconds(10)) >> [] { FAIL() << "reply missing"; });
  // Tenant 1's jobs ran one at a time (it may hold every worker but one),
  // in the order sent; tenant 2's went first.
  const std::vector<std::string> order{"quick", "busy-0", "busy-1", "busy-2", "busy-3"};
  EXPECT_EQ(written(), order);
  EXPECT_EQ(replied, order);
}

TEST_F(marks_test, a_write_queued_past_its_wait_is_dropped_unrun) {
  caf::scoped_actor self{sys};
  auto c = sys.spawn(committer, pool, caf::actor{self}, std::chrono::milliseconds{200});
  // The second write queues behind the first, which takes longer than the
  // second may wait.
  self->send(c, marking("slow", 500, false, 0), std::string{"slow"});
  self->send(c, marking("queued", 0, false, 0), std::string{"queued"});
  std::map<std::string, bool> committed;
  for (int i = 0; i < 2; ++i)
    self->receive([&](const std::string& tag, bool ok) { committed[tag] = ok; },
                  caf::after(std::chrono::seconds(10)) >> [] { FAIL() << "reply missing"; });
  EXPECT_EQ(committed, (std::map<std::string, bool>{{"slow", true}, {"queued", false}}));
  EXPECT_EQ(marks("slow"), 1);
  EXPECT_EQ(marks("queued"), 0);
  self->send_exit(c, caf::exit_reason::user_shutdown);
}

TEST_F(marks_test, work_running_past_its_deadline_is_cancelled_in_the_database) {
  auto one = std::make_shared<db_pool>(
      db_pool::spawn(sys, database_url(), 1, std::chrono::milliseconds(300)));
  caf::scoped_actor self{sys};
  // The test's sessions have no statement_timeout: only a cancel stops
  // this sleep before a minute.
  auto stopped_by = std::make_shared<std::string>();
  self->send(one->dispatcher(), db_task{[stopped_by](soci::session& s) -> std::any {
                                          try {
                                            s << "SELECT pg_sleep(60)";
                                          } catch (const std::exception& e) {
                                            *stopped_by = e.what();
                                            throw;
                                          }
                                          return {};
                                        },
                                        1});
  self->receive(
      [](db_result&) { FAIL() << "the sleep ran to its end"; },
      [](caf::error& e) { EXPECT_EQ(to_domain_error(e).code, domain::errc::unavailable); },
      caf::after(std::chrono::seconds(30)) >> [] { FAIL() << "not cancelled"; });
  EXPECT_NE(stopped_by->find("canceling statement due to user request"), std::string::npos)
      << *stopped_by;
  // The worker and its session serve the next job.
  self->send(one->dispatcher(), marking("next", 0, false, 1));
  self->receive([](db_result& r) { EXPECT_EQ(std::any_cast<std::string>(r.value), "next"); },
                [](caf::error&) { FAIL() << "the next job failed"; },
                caf::after(std::chrono::seconds(10)) >> [] { FAIL() << "reply missing"; });
  EXPECT_EQ(marks("next"), 1);
  one->shutdown();
}

TEST_F(marks_test, work_that_waited_past_its_deadline_is_dropped_not_run_late) {
  auto one = std::make_shared<db_pool>(
      db_pool::spawn(sys, database_url(), 1, std::chrono::milliseconds(300)));
  caf::scoped_actor self{sys};
  // The first job outlives its deadline off the database (a cancel finds
  // no statement to stop), so the second waits past its own.
  self->send(one->dispatcher(),
             db_task{[tag = prefix + "first"](soci::session& s) -> std::any {
                       std::this_thread::sleep_for(std::chrono::milliseconds(600));
                       s << "INSERT INTO actor_test_writes (tag) VALUES (:t)", soci::use(tag);
                       return {};
                     },
                     1});
  self->send(one->dispatcher(), marking("late", 0, false, 2));
  int done = 0;
  int dropped = 0;
  for (int i = 0; i < 2; ++i)
    self->receive([&](db_result&) { ++done; }, [&](caf::error&) { ++dropped; },
                  caf::after(std::chrono::seconds(10)) >> [] { FAIL() << "reply missing"; });
  EXPECT_EQ(done, 1);
  EXPECT_EQ(dropped, 1);
  one->shutdown();
  EXPECT_EQ(marks("first"), 1);
  EXPECT_EQ(marks("late"), 0);
}

} // namespace
} // namespace vcs::actors
