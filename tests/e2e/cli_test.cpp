// The executable's commands and start-up errors.

#include "command_run.hpp"
#include "scratch_database.hpp"
#include "service_process.hpp"
#include "storage/migrations.hpp"

#include <gtest/gtest.h>

#include <regex>

namespace vcs::test {
namespace {

struct run_result {
  int status = -1;
  std::string output;
};

// Both streams of the command, for messages that may go to either.
run_result run(const std::string& env, const std::string& args) {
  auto r = run_service_command(env, args);
  return {r.status, r.out + r.err};
}

TEST(cli_test, help_lists_commands_and_every_documented_variable) {
  auto r = run("", "--help");
  EXPECT_EQ(r.status, 0);
  for (const char* word : {"serve", "migrate", "VCS_DATABASE_URL", "VCS_PUBLIC_LISTEN",
                           "VCS_OPERATOR_LISTEN", "VCS_OPERATOR_TOKEN", "VCS_SECRET_KEY",
                           "VCS_LOG_LEVEL", "VCS_DB_POOL_SIZE", "VCS_BODY_LIMIT"})
    EXPECT_NE(r.output.find(word), std::string::npos) << word;
}

// Without a database or any setting: the version and the commit it was
// built from, as /metrics reports them (vcs_build_info).
TEST(cli_test, version_names_the_release_and_commit) {
  for (const char* args : {"--version", "version"}) {
    auto r = run("", args);
    EXPECT_EQ(r.status, 0) << args;
    EXPECT_TRUE(std::regex_match(
        r.output,
        std::regex{
            R"(voice-campaign-service \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)\n)"}))
        << args << ": " << r.output;
  }
}

// The settings in effect after the file, the environment and the command
// line, one `name = value` line each; secrets only as set.
TEST(cli_test, config_prints_the_effective_settings_with_secrets_masked) {
  auto r = run("VCS_DATABASE_URL='postgresql://vcs:hunter2@db/vcs' VCS_OPERATOR_TOKEN=tok-4711 "
               "VCS_DB_POOL_SIZE=7",
               "config --webhook-tenant-in-flight=5");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\ndb-pool-size = 7\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\nwebhook-tenant-in-flight = 5\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\noperator-token = (set)\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\nsecret-key = \n"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("tok-4711"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("hunter2"), std::string::npos) << r.output;
}

TEST(cli_test, serve_without_secrets_is_a_clear_start_up_error) {
  auto no_token = run("VCS_DATABASE_URL='" + database_url() + "'", "serve");
  EXPECT_EQ(no_token.status, 2);
  EXPECT_NE(no_token.output.find("VCS_OPERATOR_TOKEN"), std::string::npos) << no_token.output;
  auto no_key = run("VCS_DATABASE_URL='" + database_url() + "' VCS_OPERATOR_TOKEN=t", "serve");
  EXPECT_EQ(no_key.status, 2);
  EXPECT_NE(no_key.output.find("VCS_SECRET_KEY"), std::string::npos) << no_key.output;
  auto short_key = run("VCS_DATABASE_URL='" + database_url() + "' VCS_OPERATOR_TOKEN=t",
                       "serve --secret-key=abc");
  EXPECT_EQ(short_key.status, 2);
  EXPECT_NE(short_key.output.find("64 hex"), std::string::npos) << short_key.output;
}

TEST(cli_test, shipped_configuration_file_is_valid_and_overridable) {
  std::string file = std::string{VCS_SOURCE_DIR} + "/config/voice-campaign-service.conf";
  auto r = run("VCS_DATABASE_URL='" + database_url() + "'", "migrate --config=" + file);
  EXPECT_EQ(r.status, 0) << r.output;
  // A bad value in the environment beats the file and is reported.
  auto bad = run("VCS_DB_POOL_SIZE=many VCS_DATABASE_URL='" + database_url() + "'",
                 "migrate --config=" + file);
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.output.find("many"), std::string::npos) << bad.output;
  auto missing = run("", "migrate --config=/nonexistent.conf");
  EXPECT_EQ(missing.status, 2);
}

TEST(cli_test, unknown_commands_and_options_are_rejected) {
  EXPECT_EQ(run("", "launch").status, 2);
  EXPECT_EQ(run("", "serve --no-such-option=1").status, 2);
  EXPECT_EQ(run("", "serve --db-pool-size=lots").status, 2);
}

TEST(cli_test, migrate_command_is_idempotent) {
  auto first = run("VCS_DATABASE_URL='" + database_url() + "'", "migrate");
  EXPECT_EQ(first.status, 0) << first.output;
  auto second = run("", "migrate --database-url='" + database_url() + "'");
  EXPECT_EQ(second.status, 0) << second.output;
  EXPECT_NE(second.output.find("0 applied"), std::string::npos) << second.output;
}

TEST(cli_test, migrate_status_lists_what_migrate_would_apply_and_changes_nothing) {
  scratch_database db{"vcs_migrate_status"};
  const auto env = "VCS_DATABASE_URL='" + db.url() + "'";
  const auto& all = storage::embedded_migrations();
  auto fresh = run(env, "migrate --status");
  EXPECT_EQ(fresh.status, 3) << fresh.output;
  EXPECT_NE(fresh.output.find("schema version 0"), std::string::npos) << fresh.output;
  for (const auto& [name, sql] : all)
    EXPECT_NE(fresh.output.find("pending: " + std::string{name}), std::string::npos) << name;
  EXPECT_EQ(run(env, "migrate --status").status, 3) << "--status applied nothing";

  ASSERT_EQ(run(env, "migrate").status, 0);
  auto current = run(env, "migrate --status");
  EXPECT_EQ(current.status, 0) << current.output;
  EXPECT_NE(current.output.find("up to date"), std::string::npos) << current.output;
  EXPECT_EQ(current.output.find("pending:"), std::string::npos) << current.output;

  // A database a newer binary migrated.
  *db.open() << "INSERT INTO schema_migrations (version, name) VALUES (9999, '9999_future.sql')";
  auto newer = run(env, "migrate --status");
  EXPECT_EQ(newer.status, 4) << newer.output;
  EXPECT_NE(newer.output.find("run a newer binary"), std::string::npos) << newer.output;
}

} // namespace
} // namespace vcs::test
