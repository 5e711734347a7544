// Migrations against the real database: idempotent, and safe when several
// nodes start at once.

#include "scratch_database.hpp"
#include "service_process.hpp"
#include "storage/database.hpp"
#include "storage/lead_repository.hpp"
#include "storage/migrations.hpp"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace vcs::test {
namespace {

int embedded_version() {
  const auto& files = storage::embedded_migrations();
  return std::stoi(std::string{files.back().first.substr(0, 4)});
}

TEST(migration_test, applying_twice_is_a_no_op) {
  auto sql = storage::open_session(database_url());
  storage::migrate(*sql);
  long long before = 0;
  *sql << "SELECT count(*) FROM schema_migrations", soci::into(before);
  auto again = storage::migrate(*sql);
  EXPECT_EQ(again.applied, 0);
  EXPECT_EQ(again.current, embedded_version());
  long long after = 0;
  *sql << "SELECT count(*) FROM schema_migrations", soci::into(after);
  EXPECT_EQ(before, after);
  EXPECT_EQ(after, static_cast<long long>(storage::embedded_migrations().size()));
}

TEST(migration_test, concurrent_nodes_migrate_once) {
  std::vector<std::thread> nodes;
  std::vector<int> results(4, -1);
  for (std::size_t i = 0; i < results.size(); ++i)
    nodes.emplace_back([&results, i] {
      auto sql = storage::open_session(database_url());
      results[i] = storage::migrate(*sql).current;
    });
  for (auto& n : nodes)
    n.join();
  for (int v : results)
    EXPECT_EQ(v, embedded_version());
}

TEST(migration_test, database_url_accepts_uri_and_keyword_forms) {
  auto sql = storage::open_session(database_url());
  storage::ping(*sql);
  EXPECT_THROW(storage::open_session("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"),
               std::exception);
  EXPECT_THROW(storage::open_session("not a = valid 'string"), std::exception);
}

// Applies the migrations named from `from` (inclusive) to `upto`
// (exclusive; empty: to the last).
void migrate_range(soci::session& sql, std::string_view from, std::string_view upto) {
  for (const auto& [name, text] : storage::embedded_migrations())
    if (name >= from && (upto.empty() || name < upto))
      sql << std::string{text};
}

// A session on `db` with the migrations named before `upto` applied.
std::unique_ptr<soci::session> migrated_before(const scratch_database& db, std::string_view upto) {
  auto sql = db.open();
  migrate_range(*sql, "", upto);
  return sql;
}

// A tenant and its campaign, and a running import job of `accepted` items
// for it, as the schema before a migration has them.
struct import_owner {
  long long tenant = 0;
  long long campaign = 0;
};

import_owner new_campaign(soci::session& sql) {
  import_owner o;
  sql << "INSERT INTO tenants (name, plan) VALUES ('t', 'PRO') RETURNING id", soci::into(o.tenant);
  sql << "INSERT INTO campaigns (tenant_id, name) VALUES (:t, 'c') RETURNING id",
      soci::use(o.tenant), soci::into(o.campaign);
  return o;
}

long long running_job(soci::session& sql, const import_owner& o, int accepted) {
  long long job = 0;
  sql << "INSERT INTO lead_import_jobs (tenant_id, campaign_id, accepted, status) "
         "VALUES (:t, :c, :a, 'running') RETURNING id",
      soci::use(o.tenant), soci::use(o.campaign), soci::use(accepted), soci::into(job);
  return job;
}

// A lead of the campaign at `position`, as a single add writes it.
void add_lead(soci::session& sql, const import_owner& o, int position, const std::string& phone) {
  sql << "INSERT INTO leads (tenant_id, campaign_id, position, phone_number) "
         "VALUES (:t, :c, :p, :n)",
      soci::use(o.tenant), soci::use(o.campaign), soci::use(position), soci::use(phone);
}

// Migration 0008 moves each unfinished import's rows from the job's one
// payload into chunks, starting where the import stopped; the imports go
// on from their chunks (as 0014 converted them).
TEST(migration_test, unfinished_imports_continue_from_their_chunks) {
  const scratch_database db{"vcs_migration_0008"};
  {
    auto sql = migrated_before(db, "0008");
    *sql << "INSERT INTO tenants (name, plan) VALUES ('t', 'PRO')";
    *sql << "INSERT INTO campaigns (tenant_id, name) SELECT id, 'c' FROM tenants";
    // 12,000 rows, 5,000 of them imported before the upgrade; and a job
    // that had finished.
    *sql << "INSERT INTO lead_import_jobs (tenant_id, campaign_id, payload, accepted, invalid, "
            "status, next_index) SELECT c.tenant_id, c.id, (SELECT jsonb_agg(jsonb_build_object("
            "'phone_number', '+1415555' || lpad(g::text, 5, '0'))) FROM generate_series(0, 11999) "
            "g), 12003, 3, s.status, s.next FROM campaigns c, (VALUES ('running', 5000), ('done', "
            "12000)) s(status, next)";
    migrate_range(*sql, "0008", "");
    std::vector<int> first(4), count(4);
    std::vector<std::string> phone(4), status(4);
    *sql << "SELECT c.first_index, c.row_count, c.phone_numbers[1], j.status "
            "FROM lead_import_chunks c JOIN lead_import_jobs j ON j.id = c.job_id "
            "ORDER BY c.first_index",
        soci::into(first), soci::into(count), soci::into(phone), soci::into(status);
    EXPECT_EQ(first, (std::vector<int>{5000, 10000}));
    EXPECT_EQ(count, (std::vector<int>{5000, 2000}));
    EXPECT_EQ(phone, (std::vector<std::string>{"+141555505000", "+141555510000"}));
    EXPECT_EQ(status, (std::vector<std::string>{"running", "running"}));
  }
}

// Migration 0014 turns each stored chunk's JSON rows into one array per
// column, every field kept, and the chunk imports from them as before.
TEST(migration_test, stored_chunks_become_column_arrays_and_still_import) {
  const scratch_database db{"vcs_migration_0014"};
  {
    auto sql = migrated_before(db, "0014");
    const auto [tenant, campaign] = new_campaign(*sql);
    // The campaign already has the second row's number.
    add_lead(*sql, {tenant, campaign}, 0, "+14155550102");
    *sql << "INSERT INTO lead_blocks (campaign_id, block, live_count) VALUES (:c, 0, 1)",
        soci::use(campaign);
    *sql << "UPDATE campaigns SET lead_count = 1, next_lead_position = 1 WHERE id = :c",
        soci::use(campaign);
    const auto job = running_job(*sql, {tenant, campaign}, 9);
    *sql << "INSERT INTO lead_import_chunks (job_id, first_index, row_count, rows) VALUES (:j, 0, "
            "3, '[{\"phone_number\":\"+14155550101\",\"first_name\":\"Ada\",\"last_name\":"
            "\"L\",\"email\":\"a@example.com\",\"custom_fields\":{\"k\":[1,\"x\"]},"
            "\"invalid\":false,\"i\":4},{\"phone_number\":\"+14155550102\",\"i\":6},"
            "{\"phone_number\":\"+19999999999\",\"invalid\":true,\"invalid_reason\":"
            "\"bad\",\"custom_fields\":{},\"i\":8}]')",
        soci::use(job);
    migrate_range(*sql, "0014", "");

    std::string phones, firsts, lasts, emails, customs, invalid, reasons, indexes;
    *sql << "SELECT phone_numbers::text, first_names::text, last_names::text, emails::text, "
            "custom_fields::text, invalid::text, invalid_reasons::text, row_indexes::text "
            "FROM lead_import_chunks WHERE job_id = :j",
        soci::use(job), soci::into(phones), soci::into(firsts), soci::into(lasts),
        soci::into(emails), soci::into(customs), soci::into(invalid), soci::into(reasons),
        soci::into(indexes);
    EXPECT_EQ(phones, "{+14155550101,+14155550102,+19999999999}");
    EXPECT_EQ(firsts, "{Ada,NULL,NULL}");
    EXPECT_EQ(lasts, "{L,NULL,NULL}");
    EXPECT_EQ(emails, "{a@example.com,NULL,NULL}");
    EXPECT_EQ(customs, R"({"{\"k\": [1, \"x\"]}","{}","{}"})");
    EXPECT_EQ(invalid, "{f,f,t}");
    EXPECT_EQ(reasons, "{NULL,NULL,bad}");
    EXPECT_EQ(indexes, "{4,6,8}");

    auto counts = storage::import_leads(*sql, tenant, campaign, job, 0, 3);
    EXPECT_EQ(counts.inserted, 2);
    EXPECT_EQ(counts.duplicates, 1);
    std::string ada, flagged;
    *sql << "SELECT first_name || ' ' || last_name || ' ' || email || ' ' || custom_fields::text "
            "FROM leads WHERE campaign_id = :c AND phone_number = '+14155550101'",
        soci::use(campaign), soci::into(ada);
    EXPECT_EQ(ada, R"(Ada L a@example.com {"k": [1, "x"]})");
    *sql << "SELECT invalid::text || ' ' || invalid_reason FROM leads "
            "WHERE campaign_id = :c AND phone_number = '+19999999999'",
        soci::use(campaign), soci::into(flagged);
    EXPECT_EQ(flagged, "true bad");
    int rejected_index = -1;
    *sql << "SELECT row_index FROM lead_import_rejections WHERE job_id = :j", soci::use(job),
        soci::into(rejected_index);
    EXPECT_EQ(rejected_index, 6);
  }
}

// Migration 0016 keeps stored chunks' custom fields as JSON text, which the
// insert parses once; chunks stored before it import as they would have.
TEST(migration_test, stored_custom_fields_become_text_and_still_import) {
  const scratch_database db{"vcs_migration_0016"};
  {
    auto sql = migrated_before(db, "0016");
    const auto [tenant, campaign] = new_campaign(*sql);
    const auto job = running_job(*sql, {tenant, campaign}, 2);
    *sql << "INSERT INTO lead_import_chunks (job_id, first_index, row_count, phone_numbers, "
            "first_names, last_names, emails, custom_fields, invalid, invalid_reasons, "
            "row_indexes) VALUES (:j, 0, 2, '{+14155550101,+14155550102}', '{NULL,NULL}', "
            "'{NULL,NULL}', '{NULL,NULL}', ARRAY['{\"k\": [1, \"é\"]}'::jsonb, '{}'], "
            "'{f,f}', '{NULL,NULL}', '{0,1}')",
        soci::use(job);
    migrate_range(*sql, "0016", "");

    std::string type, customs;
    *sql << "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = 'lead_import_chunks'::regclass AND attname = 'custom_fields'",
        soci::into(type);
    EXPECT_EQ(type, "text[]");
    *sql << "SELECT custom_fields::text FROM lead_import_chunks WHERE job_id = :j", soci::use(job),
        soci::into(customs);
    EXPECT_EQ(customs, R"({"{\"k\": [1, \"é\"]}","{}"})");

    auto counts = storage::import_leads(*sql, tenant, campaign, job, 0, 2);
    EXPECT_EQ(counts.inserted, 2);
    std::vector<std::string> fields(2);
    *sql << "SELECT custom_fields::text FROM leads WHERE campaign_id = :c ORDER BY phone_number",
        soci::use(campaign), soci::into(fields);
    EXPECT_EQ(fields, (std::vector<std::string>{R"({"k": [1, "é"]})", "{}"}));
  }
}

// Migration 0017: lead numbers and the do-not-call list compare byte for
// byte, under one collation (the dialer joins them on the number), and
// still refuse a number twice.
TEST(migration_test, phone_numbers_compare_bytewise_on_both_sides_of_the_dialer_join) {
  const scratch_database db{"vcs_migration_0017"};
  {
    auto sql = migrated_before(db, "0017");
    const auto owner = new_campaign(*sql);
    add_lead(*sql, owner, 0, "+14155550101");
    *sql << "INSERT INTO do_not_call_numbers (tenant_id, phone_number) VALUES (:t, '+14155550101')",
        soci::use(owner.tenant);
    migrate_range(*sql, "0017", "");

    std::vector<std::string> collations(2);
    *sql << "SELECT c.collname FROM pg_attribute a JOIN pg_collation c ON c.oid = a.attcollation "
            "WHERE a.attname = 'phone_number' AND a.attrelid IN ('leads'::regclass, "
            "'do_not_call_numbers'::regclass) ORDER BY a.attrelid::regclass::text",
        soci::into(collations);
    EXPECT_EQ(collations, (std::vector<std::string>{"C", "C"}));
    int blocked = 0;
    *sql << "SELECT count(*) FROM leads l JOIN do_not_call_numbers d "
            "ON d.tenant_id = l.tenant_id AND d.phone_number = l.phone_number",
        soci::into(blocked);
    EXPECT_EQ(blocked, 1);
    EXPECT_THROW(add_lead(*sql, owner, 1, "+14155550101"), soci::soci_error);
  }
}

} // namespace
} // namespace vcs::test
