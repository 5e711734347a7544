// The settings table: each default is written once (in the config or the
// settings struct nested in it), and the shipped configuration file and the
// --help text say the same.

#include "app/config.hpp"
#include "domain/webhook_retry.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace vcs::app {
namespace {

parsed_command parse(std::vector<std::string> args) {
  args.insert(args.begin(), "voice-campaign-service");
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

TEST(Config, TheShippedFileHoldsTheBuiltInDefaults) {
  // VCS_* variables, if any are set, apply to both alike.
  const auto with_file = parse(
      {"serve", std::string{"--config="} + VCS_SOURCE_DIR + "/config/voice-campaign-service.conf"});
  const auto without = parse({"serve"});
  EXPECT_EQ(describe(with_file.settings), describe(without.settings));
}

TEST(Config, SecretsAreNeverShown) {
  const auto parsed = parse({"serve", "--operator-token=tok-5f1e", "--secret-key=abcdef0123",
                             "--database-url=postgresql://vcs:pw-77@db/vcs"});
  std::map<std::string, std::string> shown;
  for (auto& [name, value] : describe(parsed.settings))
    shown[name] = value;
  for (const char* name : {"operator-token", "secret-key", "database-url"})
    EXPECT_EQ(shown[name], "(set)") << name;
  for (auto& [name, value] : shown)
    for (const char* secret : {"tok-5f1e", "abcdef0123", "pw-77"})
      EXPECT_EQ(value.find(secret), std::string::npos) << name;
  EXPECT_EQ(parsed.settings.operator_token, "tok-5f1e");
}

TEST(Config, HelpShowsEachDefaultFromItsStruct) {
  const auto help = usage();
  const http::server_options server;
  const actors::webhook_settings webhooks;
  EXPECT_NE(help.find("HTTP event loop threads (" + std::to_string(server.io_threads) + ")"),
            std::string::npos);
  EXPECT_NE(help.find("the delivery is dead when they are spent (" +
                      domain::format_retry_schedule(webhooks.retry) + ")"),
            std::string::npos);
}

TEST(Config, NestedSettingsAreReadIntoTheirStructs) {
  const auto c = parse({"serve", "--io-threads=5", "--dial-lease-seconds=45",
                        "--webhook-retry-schedule=1500ms, 2m,3h", "--public-listen=0.0.0.0:9000"})
                     .settings;
  EXPECT_EQ(c.server.io_threads, 5u);
  EXPECT_EQ(c.dial.lease_seconds, 45);
  EXPECT_EQ(c.webhooks.retry,
            (domain::retry_schedule{std::chrono::milliseconds{1500}, std::chrono::minutes{2},
                                    std::chrono::hours{3}}));
  EXPECT_EQ(c.server.public_listen, "0.0.0.0:9000");
  EXPECT_THROW(parse({"serve", "--dial-lease-seconds=4294967296"}), std::invalid_argument);
  EXPECT_THROW(parse({"serve", "--io-threads=-1"}), std::invalid_argument);
  EXPECT_THROW(parse({"serve", "--webhook-retry-schedule=5s,,5m"}), std::invalid_argument);
}

TEST(Config, RetentionsAreDurationsOrZero) {
  const auto c = parse({"serve", "--calls-retention=12h", "--events-retention=0"}).settings;
  EXPECT_EQ(c.maintenance.retention.calls, std::chrono::hours{12});
  EXPECT_EQ(c.maintenance.retention.events, std::chrono::seconds{0});
  EXPECT_EQ(c.maintenance.retention.deliveries, std::chrono::days{30});
  std::map<std::string, std::string> shown;
  for (auto& [name, value] : describe(c))
    shown[name] = value;
  EXPECT_EQ(shown["calls-retention"], "12h");
  EXPECT_EQ(shown["events-retention"], "0");
  EXPECT_EQ(shown["imports-retention"], "30d");
  for (const char* bad : {"--calls-retention=500ms", "--calls-retention=90",
                          "--calls-retention=-1d", "--calls-retention=36501d"})
    EXPECT_THROW(parse({"serve", bad}), std::invalid_argument) << bad;
}

TEST(Config, AnImportChunkOfNoRowsIsRefused) {
  const std::vector<std::string> serve{"serve", "--database-url=postgresql://db/vcs",
                                       "--operator-token=t",
                                       "--secret-key=" + std::string(64, 'a')};
  auto with = [&](std::string extra) {
    auto args = serve;
    args.push_back(std::move(extra));
    return parse(args).settings;
  };
  EXPECT_NO_THROW(require_serve_settings(with("--import-chunk-size=1")));
  EXPECT_THROW(require_serve_settings(with("--import-chunk-size=0")), std::invalid_argument);
}

} // namespace
} // namespace vcs::app
