// Every prepared statement of the storage layer has a name of its own: two
// of one name would run each other's SQL on a connection that prepared the
// other first (storage/prepared.cpp refuses it at run time too).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

namespace vcs::storage {
namespace {

TEST(statement_names_test, no_two_prepared_statements_share_a_name) {
  const std::regex named{R"re(prepared_statement\s+\w+\s*\{\s*"([^"]+)")re"};
  std::map<std::string, std::string> seen; // name -> file
  int count = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator{std::string{VCS_SOURCE_DIR} + "/src/storage"}) {
    if (entry.path().extension() != ".cpp")
      continue;
    std::ifstream in{entry.path()};
    std::stringstream text;
    text << in.rdbuf();
    const auto source = text.str();
    for (std::sregex_iterator it{source.begin(), source.end(), named}, end; it != end; ++it) {
      ++count;
      const auto file = entry.path().filename().string();
      auto [at, fresh] = seen.emplace((*it)[1], file);
      EXPECT_TRUE(fresh) << (*it)[1] << " is named in " << at->second << " and " << file;
    }
  }
  EXPECT_GT(count, 100) << "the pattern no longer finds the statements";
}

} // namespace
} // namespace vcs::storage
