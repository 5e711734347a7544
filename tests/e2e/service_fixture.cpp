#include "service_fixture.hpp"

#include "domain/global_id.hpp"

#include <atomic>
#include <chrono>
#include <thread>

namespace vcs::test {

service_process& shared_service() {
  static service_process instance;
  return instance;
}

service_test::service_test()
    : svc(shared_service()), public_client("127.0.0.1", svc.public_port()),
      operator_client("127.0.0.1", svc.operator_port()) {}

http_response service_test::op(const std::string& method, const std::string& target,
                               const std::string& body) {
  return operator_client.request(method, target, body, bearer(svc.operator_token()));
}

http_response service_test::pub(const std::string& method, const std::string& target,
                                const std::string& key, const std::string& body) {
  return public_client.request(method, target, body, bearer(key));
}

tenant_info service_test::create_tenant(const std::string& plan) {
  static std::atomic<int> counter{0};
  auto name = "tenant-" + std::to_string(++counter);
  auto r = op("POST", "/admin/v1/tenants", R"({"name":")" + name + R"(","plan":")" + plan + "\"}");
  EXPECT_EQ(r.status, 201u) << r.body;
  auto d = parse(r.body);
  return {str(d, "tenant_id"), str(d["api_key"], "key"), str(d["api_key"], "id")};
}

rapidjson::Document service_test::wait_import(const std::string& campaign_path,
                                              const std::string& key,
                                              const std::string& import_id) {
  for (int i = 0; i < 600; ++i) {
    auto r = pub("GET", campaign_path + "/leads/imports/" + import_id, key);
    EXPECT_EQ(r.status, 200u) << r.body;
    auto d = parse(r.body);
    if (str(d, "status") == "done")
      return d;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ADD_FAILURE() << "import did not finish";
  return parse("{}");
}

} // namespace vcs::test

namespace vcs::test {

std::string numbered_leads(int count, int first) {
  std::string body = "[";
  for (int i = 0; i < count; ++i)
    body +=
        std::string{i ? "," : ""} + R"({"phone_number":"+1415)" + std::to_string(first + i) + "\"}";
  return body + "]";
}

long long service_test::tenant_db_id(const tenant_info& t) {
  auto id = domain::decode_global_id(domain::entity::tenant, t.id);
  EXPECT_TRUE(id) << t.id;
  return id.value_or(0);
}

} // namespace vcs::test
