// docs/openapi.yaml and the router agree: every routed method and path is
// documented, and every documented operation is routed.

#include "http/routes.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>

namespace vcs::http {
namespace {

using operation = std::pair<std::string, std::string>; // method, path

// Reads "  /path:" and "    get:" lines (the document's own layout).
std::set<operation> documented() {
  std::ifstream in{std::string{VCS_SOURCE_DIR} + "/docs/openapi.yaml"};
  std::set<operation> ops;
  std::string line, path;
  std::regex path_line{R"(^  (/\S*):\s*$)"};
  std::regex method_line{R"(^    (get|post|patch|put|delete):\s*$)"};
  std::smatch m;
  bool in_paths = false;
  while (std::getline(in, line)) {
    if (line == "paths:") {
      in_paths = true;
      continue;
    }
    if (in_paths && !line.empty() && line[0] != ' ')
      break;
    if (std::regex_match(line, m, path_line)) {
      path = m[1];
    } else if (!path.empty() && std::regex_match(line, m, method_line)) {
      std::string method = m[1];
      for (auto& c : method)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      ops.emplace(method, path);
    }
  }
  return ops;
}

std::set<operation> routed() {
  std::set<operation> ops;
  for (const auto& table : {public_routes(), operator_routes()})
    for (const auto& r : table.routes())
      ops.emplace(r.method, r.pattern);
  return ops;
}

TEST(route_docs_test, every_route_is_documented_and_every_documented_route_exists) {
  auto docs = documented();
  auto code = routed();
  ASSERT_FALSE(docs.empty());
  for (const auto& op : code)
    EXPECT_TRUE(docs.count(op)) << op.first << " " << op.second << " is routed but not documented";
  for (const auto& op : docs)
    EXPECT_TRUE(code.count(op)) << op.first << " " << op.second << " is documented but not routed";
}

} // namespace
} // namespace vcs::http
