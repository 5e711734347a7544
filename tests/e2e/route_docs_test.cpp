// docs/openapi.yaml and the router agree: every routed method and path is
// documented, every documented operation is routed by each listener its
// x-listener names (scripts/lib/openapi_split.py publishes each listener's
// document from it), every public route that takes an API key names the
// permission it needs, as documented (x-permission), and the routes open to
// client users name the access level they need, as documented
// (x-client-level).

#include "http/work/handler.hpp"
#include "http/work/routes.hpp"

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

// An operation's x-permission, x-client-level and x-listener ("" when none).
struct extensions {
  std::string permission;
  std::string client_level;
  std::string listener;
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
  std::regex listener_line{R"(^      x-listener: (\S+)\s*$)"};
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
    } else if (last && std::regex_match(line, m, listener_line)) {
      ops[*last].listener = m[1];
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

// The listeners that route each operation.
std::map<operation, std::set<std::string>> routed_by() {
  std::map<operation, std::set<std::string>> by;
  const auto public_table = public_routes();
  const auto operator_table = operator_routes();
  for (const auto& r : public_table.routes())
    by[{r.method, r.pattern}].insert("public");
  for (const auto& r : operator_table.routes())
    by[{r.method, r.pattern}].insert("operator");
  return by;
}

// x-listener decides which published document has the operation, so the
// listeners it names, and only those, route it.
TEST(route_docs_test, every_documented_operation_is_routed_by_its_x_listener) {
  const std::map<std::string, std::set<std::string>> named{
      {"public", {"public"}}, {"operator", {"operator"}}, {"both", {"public", "operator"}}};
  auto by = routed_by();
  for (const auto& [op, ext] : documented()) {
    const auto listeners = named.find(ext.listener);
    if (listeners == named.end()) {
      ADD_FAILURE() << op.first << " " << op.second << ": x-listener is '" << ext.listener
                    << "', not public, operator or both";
      continue;
    }
    EXPECT_EQ(by[op], listeners->second)
        << op.first << " " << op.second << " is documented for x-listener " << ext.listener;
  }
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
