// A campaign's lead counters are kept by the statements that change its
// leads (migrations 0025 and 0032): after any mix of statements, and under
// concurrent writers, they equal a count of every lead, and so do the
// forecast's lead states.
#include "domain/dial_policy.hpp"
#include "storage/campaign_repository.hpp"
#include "storage/database.hpp"
#include "storage/forecast_repository.hpp"
#include "storage/lead_statistics.hpp"
#include "storage/migrations.hpp"
#include "storage/tenant_repository.hpp"

#include "service_process.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <regex>
#include <string>
#include <thread>
#include <vector>

namespace vcs::storage {
namespace {

using test::database_url;

class lead_statistics_test : public ::testing::Test {
protected:
  void SetUp() override { migrate(*sql); }

  int64_t tenant(const std::string& name) {
    return insert_tenant(*sql, name, domain::plan::pro, std::nullopt).id;
  }

  int64_t campaign(int64_t tenant_id, const std::string& name) {
    domain::campaign_fields fields;
    fields.name = name;
    return insert_campaign(*sql, tenant_id, fields).id;
  }

  // `n` idle leads numbered from `first` (positions too).
  void add_leads(int64_t tenant_id, int64_t campaign_id, int first, int n) {
    const int last = first + n - 1; // soci binds by reference: a named value
    *sql << "INSERT INTO leads (tenant_id, campaign_id, position, phone_number) "
            "SELECT :t, :c, g, '+1415' || lpad(g::text, 7, '0') "
            "FROM generate_series(:f::int, :l::int) g",
        soci::use(tenant_id, "t"), soci::use(campaign_id, "c"), soci::use(first, "f"),
        soci::use(last, "l");
  }

  // Every lead of the campaign counted, as the statistics used to be.
  void expect_counters_match(int64_t tenant_id, int64_t campaign_id, const std::string& when) {
    SCOPED_TRACE(when);
    soci::rowset<soci::row> rows =
        (sql->prepare << "SELECT call_status, count(*) FROM leads WHERE campaign_id = :c "
                         "GROUP BY call_status",
         soci::use(campaign_id));
    std::map<std::string, int64_t> want;
    for (const auto& r : rows)
      want[r.get<std::string>(0)] = r.get<long long>(1);
    long long answered = 0, dialable = 0, dated = 0;
    *sql << "SELECT count(*) FILTER (WHERE answered), count(*) FILTER (WHERE d), "
            "count(*) FILTER (WHERE d AND next_attempt_after IS NOT NULL) FROM (SELECT "
            "l.answered, l.next_attempt_after, l.call_status = 'IDLE' AND NOT l.answered AND NOT "
            "l.do_not_call AND NOT l.invalid AND n.phone_number IS NULL AS d FROM leads l "
            "LEFT JOIN do_not_call_numbers n ON n.tenant_id = :t AND n.phone_number = "
            "l.phone_number WHERE l.campaign_id = :c) x",
        soci::into(answered), soci::into(dialable), soci::into(dated), soci::use(tenant_id, "t"),
        soci::use(campaign_id, "c");

    auto counts = read_lead_counts(*sql, tenant_id, {campaign_id})[campaign_id];
    std::map<std::string, int64_t> got{counts.call_statuses.begin(), counts.call_statuses.end()};
    EXPECT_EQ(got, want);
    for (std::size_t i = 1; i < counts.call_statuses.size(); ++i)
      EXPECT_GE(counts.call_statuses[i - 1].second, counts.call_statuses[i].second);
    EXPECT_EQ(counts.answered, answered);

    auto dial = read_dial_statistics(*sql, tenant_id, campaign_id);
    EXPECT_EQ(dial.dialable, dialable);
    EXPECT_EQ(dial.first_dialable_at.has_value(), dialable > 0);
    if (dialable == 0)
      return;
    long long first = 0; // microseconds since the epoch
    soci::indicator any = soci::i_null;
    *sql << "SELECT (extract(epoch FROM min(l.next_attempt_after)) * 1000000)::bigint "
            "FROM leads l WHERE l.campaign_id = :c AND l.call_status = 'IDLE' AND NOT "
            "l.answered AND NOT l.do_not_call AND NOT l.invalid AND NOT EXISTS (SELECT 1 FROM "
            "do_not_call_numbers n WHERE n.tenant_id = :t AND n.phone_number = l.phone_number)",
        soci::into(first, any), soci::use(campaign_id, "c"), soci::use(tenant_id, "t");
    if (dialable == dated) {
      EXPECT_EQ(dial.first_dialable_at->time_since_epoch().count(), first);
    } else {
      // A lead without a time may be called at once: the count's own time,
      // or the time of a lead already due before it.
      const auto now = domain::now();
      auto floor = now - std::chrono::seconds(5);
      if (any == soci::i_ok && first < floor.time_since_epoch().count())
        floor = domain::timestamp{std::chrono::microseconds{first}};
      EXPECT_LE(*dial.first_dialable_at, now);
      EXPECT_GE(*dial.first_dialable_at, floor);
    }
  }

  // The forecast's lead states, counted from every lead in the order
  // domain::can_dial refuses them (a number on the tenant's list as the
  // lead's own mark), with the default policy (3 attempts, 3 a day, UTC).
  void expect_forecast_tally_matches(int64_t tenant_id, int64_t campaign_id) {
    const auto now = domain::now();
    const auto today = domain::local_day(nullptr, now);
    const auto now_text = domain::to_pg_timestamp(now);
    long long dnc = 0, invalid = 0, answered = 0, in_call = 0, failed = 0, callable = 0,
              callable_attempts = 0, exhausted = 0, capped = 0, gap = 0;
    *sql << "WITH x AS (SELECT l.*, l.do_not_call OR n.phone_number IS NOT NULL AS m, "
            "NOT l.invalid AND NOT l.answered AND l.call_status = 'IDLE' AS ready "
            "FROM leads l LEFT JOIN do_not_call_numbers n ON n.tenant_id = :t AND "
            "n.phone_number = l.phone_number WHERE l.campaign_id = :c), "
            "y AS (SELECT *, NOT m AND ready AND attempts_made < 3 AS open, "
            "daily_attempts_day = CAST(:day AS date) AND daily_attempts >= 3 AS cap FROM x) "
            "SELECT count(*) FILTER (WHERE m), count(*) FILTER (WHERE NOT m AND invalid), "
            "count(*) FILTER (WHERE NOT m AND NOT invalid AND (answered OR call_status = "
            "'COMPLETED')), count(*) FILTER (WHERE NOT m AND NOT invalid AND NOT answered AND "
            "call_status IN ('QUEUED', 'IN_PROGRESS')), count(*) FILTER (WHERE NOT m AND NOT "
            "invalid AND NOT answered AND call_status = 'FAILED'), count(*) FILTER (WHERE NOT m "
            "AND ready), coalesce(sum(attempts_made) FILTER (WHERE NOT m AND ready), 0), "
            "count(*) FILTER (WHERE NOT m AND ready AND attempts_made >= 3), "
            "count(*) FILTER (WHERE open AND cap), count(*) FILTER (WHERE open AND cap IS NOT "
            "TRUE AND next_attempt_after > CAST(:now AS timestamptz)) FROM y",
        soci::into(dnc), soci::into(invalid), soci::into(answered), soci::into(in_call),
        soci::into(failed), soci::into(callable), soci::into(callable_attempts),
        soci::into(exhausted), soci::into(capped), soci::into(gap), soci::use(tenant_id, "t"),
        soci::use(campaign_id, "c"), soci::use(today, "day"), soci::use(now_text, "now");
    auto c = find_campaign(*sql, tenant_id, campaign_id);
    ASSERT_TRUE(c);
    const auto t = read_forecast_inputs(*sql, *c, now).leads;
    EXPECT_EQ(t.do_not_call, dnc);
    EXPECT_EQ(t.invalid, invalid);
    EXPECT_EQ(t.answered, answered);
    EXPECT_EQ(t.in_call, in_call);
    EXPECT_EQ(t.failed, failed);
    EXPECT_EQ(t.callable, callable);
    EXPECT_EQ(t.callable_attempts, callable_attempts);
    EXPECT_EQ(t.exhausted, exhausted);
    EXPECT_EQ(t.daily_capped, capped);
    EXPECT_EQ(t.in_gap, gap);
  }

  long long pending_changes(int64_t campaign_id) {
    long long n = 0;
    *sql << "SELECT count(*) FROM campaign_lead_count_changes WHERE campaign_id = :c",
        soci::into(n), soci::use(campaign_id);
    return n;
  }

  std::unique_ptr<soci::session> sql = open_session(database_url());
};

TEST_F(lead_statistics_test, counters_follow_every_kind_of_statement_on_leads) {
  const auto t = tenant("counters statements");
  const auto a = campaign(t, "a"), b = campaign(t, "b");
  expect_counters_match(t, a, "a new campaign");
  add_leads(t, a, 0, 3'000);
  add_leads(t, b, 0, 500);
  expect_counters_match(t, a, "inserted");
  // Each statement below changes what one kind of write changes; some span
  // both campaigns, some change nothing counted. {t} is the tenant.
  const std::vector<std::string> statements = {
      "UPDATE leads SET call_status = 'QUEUED' WHERE tenant_id = {t} AND position % 7 = 1",
      "UPDATE leads SET call_status = 'IN_PROGRESS' WHERE tenant_id = {t} AND call_status = "
      "'QUEUED' AND position % 2 "
      "= 0",
      "UPDATE leads SET call_status = 'COMPLETED', answered = true, answer_type = 'human' "
      "WHERE tenant_id = {t} AND call_status = 'IN_PROGRESS'",
      "UPDATE leads SET call_status = 'FAILED' WHERE tenant_id = {t} AND position % 11 = 3",
      "UPDATE leads SET first_name = 'Ada', custom_fields = '{\"x\": 1}' WHERE tenant_id = {t} AND "
      "position < 900",
      "UPDATE leads SET do_not_call = true WHERE tenant_id = {t} AND position % 13 = 5",
      "UPDATE leads SET invalid = true, invalid_reason = 'bad' WHERE tenant_id = {t} AND position "
      "% 17 = 2",
      "UPDATE leads SET priority = position % 4, next_attempt_after = now() + (position % 50) * "
      "interval '1 minute' WHERE tenant_id = {t} AND call_status = 'IDLE'",
      "INSERT INTO do_not_call_numbers (tenant_id, phone_number) SELECT tenant_id, phone_number "
      "FROM leads WHERE tenant_id = {t} AND position % 19 = 4 ON CONFLICT DO NOTHING",
      "UPDATE leads SET call_status = 'IDLE', answered = false, answer_type = '' WHERE "
      "tenant_id = {t} AND call_status = 'COMPLETED' AND position % 3 = 0",
      "DELETE FROM leads WHERE tenant_id = {t} AND position % 23 = 6",
      "UPDATE leads SET position = position + 100000 WHERE tenant_id = {t} AND position > 2900",
      "DELETE FROM do_not_call_numbers WHERE tenant_id = {t} AND phone_number LIKE '%1'",
      "UPDATE leads SET next_attempt_after = NULL WHERE tenant_id = {t} AND position % 29 = 0",
      // Attempts as the dialer leaves them: made today, each with its next
      // attempt after the start of the day (within seconds of now), some
      // over the default three.
      "UPDATE leads SET attempts_made = position % 5, daily_attempts = position % 4, "
      "daily_attempts_day = CASE WHEN position % 3 = 0 THEN NULL ELSE (now() AT TIME ZONE "
      "'UTC')::date END, next_attempt_after = now() + (position % 9 - 4) * interval '1 second' "
      "WHERE tenant_id = {t} AND position % 5 > 0",
      "UPDATE leads SET answered = true WHERE tenant_id = {t} AND call_status = 'IDLE' AND "
      "position % 31 = 7",
  };
  for (const auto& s : statements) {
    *sql << std::regex_replace(s, std::regex{"\\{t\\}"}, std::to_string(t));
    expect_counters_match(t, a, s);
    expect_counters_match(t, b, s);
    expect_forecast_tally_matches(t, a);
  }
  add_leads(t, a, 200'000, 1'000);
  expect_counters_match(t, a, "inserted after the changes");
  // Folding moves the changes into the counter rows and keeps the figures.
  while (pending_changes(a) + pending_changes(b) > 0) {
    fold_lead_count_changes(*sql, 3);
    expect_counters_match(t, a, "folding");
    expect_counters_match(t, b, "folding");
    expect_forecast_tally_matches(t, a);
  }
}

TEST_F(lead_statistics_test, concurrent_writers_leave_exact_counters) {
  const auto t = tenant("counters concurrent");
  const auto c = campaign(t, "busy");
  add_leads(t, c, 0, 2'000);
  constexpr int writers = 4;
  std::atomic<bool> writing{true};
  // Folds while the writers write, as every node's maintenance does.
  std::thread folder{[&] {
    auto session = open_session(database_url());
    while (writing)
      fold_lead_count_changes(*session, 50);
  }};
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w)
    threads.emplace_back([&, w] {
      auto session = open_session(database_url());
      std::mt19937 random(static_cast<unsigned>(w + 1));
      const std::vector<std::string> statuses = {"IDLE", "QUEUED", "IN_PROGRESS", "COMPLETED",
                                                 "FAILED"};
      for (int i = 0; i < 150; ++i) {
        // Several statements per transaction, as a batch of lead updates is.
        soci::transaction tx{*session};
        for (int k = 0; k < 3; ++k) {
          const int position = static_cast<int>(random() % 2'000);
          const auto& status = statuses[random() % statuses.size()];
          const bool answered = random() % 2 == 0;
          *session << "UPDATE leads SET call_status = :s, answered = :a WHERE campaign_id = :c "
                      "AND position = :p",
              soci::use(status, "s"), soci::use(static_cast<int>(answered), "a"), soci::use(c, "c"),
              soci::use(position, "p");
        }
        tx.commit();
      }
    });
  for (auto& th : threads)
    th.join();
  writing = false;
  folder.join();
  expect_counters_match(t, c, "after the writers");
  expect_forecast_tally_matches(t, c);
}

TEST_F(lead_statistics_test, a_campaign_deleted_with_its_leads_takes_its_counters) {
  const auto t = tenant("counters deleted");
  const auto c = campaign(t, "gone");
  add_leads(t, c, 0, 100);
  *sql << "DELETE FROM campaigns WHERE id = :c", soci::use(c);
  EXPECT_TRUE(read_lead_counts(*sql, t, {c}).empty());
  // Its changes find no row to fold into and go.
  for (int i = 0; i < 100 && pending_changes(c) > 0; ++i)
    fold_lead_count_changes(*sql, 10'000);
  EXPECT_EQ(pending_changes(c), 0);
}

TEST_F(lead_statistics_test, another_tenant_reads_no_counters) {
  const auto t = tenant("counters owner");
  const auto c = campaign(t, "mine");
  add_leads(t, c, 0, 10);
  EXPECT_TRUE(read_lead_counts(*sql, tenant("counters stranger"), {c}).empty());
  EXPECT_EQ(read_lead_counts(*sql, t, {c})[c].call_statuses.at(0).second, 10);
}

} // namespace
} // namespace vcs::storage
