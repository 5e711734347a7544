// docs/openapi.yaml and the router agree: every routed method and path is
// documented, every documented operation is routed, every public route
// that takes an API key names the permission it needs, as documented
// (x-permission), and the routes open to client users name the access level
// they need, as documented (x-client-level).

#include "http/handler.hpp"
#include "http/routes.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>

namespace vcs::http {
namespace {

using operation = std::pair<std::string, std::string>; // method, path

// An operation's x-permission and x-client-level ("" when none).
struct extensions {
  std::string permission;
  std::string client_level;
};

// Reads "  /path:" and "    get:" lines (the document's own layout).
std::map<operation, extensions> documented() {
  std::ifstream in{std::string{VCS_SOURCE_DIR} + "/docs/openapi.yaml"};
  std::map<operation, extensions> ops;
  std::string line, path;
  std::optional<operation> last;
  std::regex path_line{R"(^  (/\S*):\s*$)"};
  std::regex method_line{R"(^    (get|post|patch|put|delete):\s*$)"};
  std::regex permission_line{R"(^      x-permission: (\S+)\s*$)"};
  std::regex level_line{R"(^      x-client-level: (\S+)\s*$)"};
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
      last = operation{method, path};
      ops.emplace(*last, extensions{});
    } else if (last && std::regex_match(line, m, permission_line)) {
      ops[*last].permission = m[1];
    } else if (last && std::regex_match(line, m, level_line)) {
      ops[*last].client_level = m[1];
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
    EXPECT_TRUE(docs.contains(op))
        << op.first << " " << op.second << " is routed but not documented";
  for (const auto& [op, ext] : docs)
    EXPECT_TRUE(code.count(op)) << op.first << " " << op.second << " is documented but not routed";
}

TEST(route_docs_test, every_public_route_taking_a_key_names_its_permission_as_documented) {
  auto docs = documented();
  const auto table = public_routes();
  for (const auto& r : table.routes()) {
    const bool takes_key = r.target && r.target->required_access() == access::api_key;
    EXPECT_EQ(takes_key, r.permission.has_value()) << r.method << " " << r.pattern;
    const std::string named = r.permission ? std::string{domain::to_string(*r.permission)} : "";
    const auto documented_as = docs[operation{r.method, r.pattern}];
    EXPECT_EQ(documented_as.permission, named) << r.method << " " << r.pattern;
    const std::string level = r.client_level ? std::string{domain::to_string(*r.client_level)} : "";
    EXPECT_EQ(documented_as.client_level, level) << r.method << " " << r.pattern;
  }
}

} // namespace
} // namespace vcs::http
