// log-format = json: one JSON object per line, the request's fields on
// access lines, and no credential anywhere.

#include "domain/global_id.hpp"
#include "http_client.hpp"
#include "json_helpers.hpp"
#include "service_process.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <vector>

namespace vcs::test {
namespace {

const rapidjson::Value* access_line(const std::vector<rapidjson::Document>& lines,
                                    const std::string& request_id) {
  for (auto& l : lines)
    if (l.HasMember("request_id") && str(l, "request_id") == request_id)
      return &l;
  return nullptr;
}

TEST(logging_test, json_lines_carry_each_requests_fields_and_no_credential) {
  const std::string secret_key = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
  service_process node{{{"VCS_LOG_FORMAT", "json"}, {"VCS_SECRET_KEY", secret_key}}};
  http_client op{"127.0.0.1", node.operator_port()};
  http_client pub{"127.0.0.1", node.public_port()};

  auto created = op.request("POST", "/admin/v1/tenants", R"({"name":"Logs","plan":"PRO"})",
                            bearer(node.operator_token()));
  ASSERT_EQ(created.status, 201u) << created.body;
  auto tenant = parse(created.body);
  const auto key = str(tenant["api_key"], "key");
  const auto tenant_id = domain::decode_global_id(domain::entity::tenant, str(tenant, "tenant_id"));
  ASSERT_TRUE(tenant_id);

  auto with_id = [&](const std::string& token, const std::string& id) {
    auto h = bearer(token);
    h.emplace_back("X-Request-Id", id);
    return h;
  };
  EXPECT_EQ(pub.request("GET", "/api/v2/voice-campaigns", {}, with_id(key, "logs-list")).status,
            200u);
  EXPECT_EQ(
      pub.request("GET", "/api/v2/voice-campaigns", {}, with_id("vcs_wrong", "logs-401")).status,
      401u);
  const std::string password = "correct horse battery logs";
  auto client = pub.request("POST", "/api/v2/clients/create",
                            R"({"client_users":[{"email":"a@logs.io","password":")" + password +
                                R"("}],"client_details":{"name":"L","email":"a@logs.io"},
                                "client_asset_group":{"name":"g"}})",
                            with_id(key, "logs-client"));
  EXPECT_EQ(client.status, 201u) << client.body;
  auto rotated = pub.request("POST", "/api/v2/webhook-secret", {}, with_id(key, "logs-secret"));
  ASSERT_EQ(rotated.status, 201u) << rotated.body;
  const auto webhook_secret = str(parse(rotated.body)["data"], "webhook_secret");
  header_list padding;
  for (int i = 0; i < 4; ++i)
    padding.emplace_back("X-Padding-" + std::to_string(i), std::string(8 * 1024, 'h'));
  http_client refused{"127.0.0.1", node.public_port()};
  EXPECT_EQ(refused.get("/healthz", padding).status, 431u);
  ASSERT_EQ(node.terminate(), 0);

  const auto log = node.log_contents();
  std::vector<rapidjson::Document> lines;
  std::istringstream in{log};
  const std::regex time{R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)"};
  for (std::string line; std::getline(in, line);) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    ASSERT_FALSE(d.HasParseError()) << "not one JSON object: " << line;
    ASSERT_TRUE(d.IsObject() && d.HasMember("time") && d.HasMember("level") && d.HasMember("msg"))
        << line;
    EXPECT_TRUE(std::regex_match(str(d, "time"), time)) << line;
    lines.push_back(std::move(d));
  }
  ASSERT_GT(lines.size(), 5u) << log;

  const auto* listed = access_line(lines, "logs-list");
  ASSERT_NE(listed, nullptr) << log;
  EXPECT_EQ(str(*listed, "msg"), "access");
  EXPECT_EQ(str(*listed, "level"), "info");
  EXPECT_EQ(str(*listed, "method"), "GET");
  EXPECT_EQ(str(*listed, "route"), "GET /api/v2/voice-campaigns");
  EXPECT_EQ((*listed)["status"].GetUint(), 200u);
  EXPECT_GE((*listed)["latency_us"].GetInt64(), 0);
  EXPECT_EQ((*listed)["tenant_id"].GetInt64(), *tenant_id);

  const auto* denied = access_line(lines, "logs-401");
  ASSERT_NE(denied, nullptr) << log;
  EXPECT_EQ((*denied)["status"].GetUint(), 401u);
  EXPECT_TRUE((*denied)["tenant_id"].IsNull()) << "no tenant before a key is accepted";

  bool rejected = false;
  for (auto& l : lines)
    rejected = rejected || (l.HasMember("route") && str(l, "route") == "rejected" &&
                            l["status"].GetUint() == 431u && l.HasMember("reason"));
  EXPECT_TRUE(rejected) << log;

  for (const auto& secret : {key, node.operator_token(), password, webhook_secret, secret_key})
    EXPECT_EQ(log.find(secret), std::string::npos) << "a credential is in the log";
}

} // namespace
} // namespace vcs::test
