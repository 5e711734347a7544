#pragma once

#include "http_client.hpp"
#include "json_helpers.hpp"
#include "service_process.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace vcs::test {

// A bulk body of `count` leads numbered +1415 first, first + 1, ... (7 digits).
std::string numbered_leads(int count, int first);

// The service process shared by the tests of this binary.
service_process& shared_service();

struct tenant_info {
  std::string id;     // global id
  std::string key;    // full API key of the "default" key
  std::string key_id; // global id of that key
};

// Base fixture: clients for both listeners of the shared service and helpers
// that provision through the operator API.
class service_test : public ::testing::Test {
protected:
  service_test();

  http_response op(const std::string& method, const std::string& target,
                   const std::string& body = {});
  http_response pub(const std::string& method, const std::string& target, const std::string& key,
                    const std::string& body = {});
  tenant_info create_tenant(const std::string& plan = "PRO");
  // Waits (bounded) until an import of the campaign at `campaign_path`
  // (/api/v2/voice-campaigns/<id>) is done; answers its progress.
  rapidjson::Document wait_import(const std::string& campaign_path, const std::string& key,
                                  const std::string& import_id);
  // The database id behind the tenant's global id.
  static long long tenant_db_id(const tenant_info& t);

  service_process& svc;
  http_client public_client;
  http_client operator_client;
};

} // namespace vcs::test
