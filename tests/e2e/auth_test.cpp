// Authentication rules of the spec's Authentication section, over HTTP.

#include "service_fixture.hpp"

namespace vcs::test {
namespace {

class auth_test : public service_test {};

TEST_F(auth_test, missing_header_is_401_with_spec_message) {
  auto r = public_client.get("/api/v2/clients");
  EXPECT_EQ(r.status, 401u);
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(str(parse(r.body), "message"), "Authorization header not found");
}

TEST_F(auth_test, unknown_key_is_401) {
  auto r = pub("GET", "/api/v2/clients", "vcs_" + std::string(48, '0'));
  EXPECT_EQ(r.status, 401u);
  EXPECT_EQ(str(parse(r.body), "message"), "Invalid API key");
}

TEST_F(auth_test, non_bearer_scheme_is_401) {
  auto t = create_tenant();
  auto r = public_client.get("/api/v2/clients", {{"Authorization", "Basic " + t.key}});
  EXPECT_EQ(r.status, 401u);
  auto empty = public_client.get("/api/v2/clients", {{"Authorization", "Bearer "}});
  EXPECT_EQ(empty.status, 401u);
}

TEST_F(auth_test, valid_key_authenticates_and_scheme_is_case_insensitive) {
  auto t = create_tenant();
  EXPECT_EQ(pub("GET", "/api/v2/clients", t.key).status, 200u);
  auto r = public_client.get("/api/v2/clients", {{"Authorization", "bearer " + t.key}});
  EXPECT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(parse(r.body)["clients"].Size(), 0u);
}

TEST_F(auth_test, inactive_tenant_is_403_until_reactivated) {
  auto t = create_tenant();
  auto off = op("PATCH", "/admin/v1/tenants/" + t.id, R"({"active":false})");
  ASSERT_EQ(off.status, 200u) << off.body;
  auto r = pub("GET", "/api/v2/clients", t.key);
  EXPECT_EQ(r.status, 403u);
  EXPECT_EQ(str(parse(r.body), "message"), "Tenant is inactive");
  ASSERT_EQ(op("PATCH", "/admin/v1/tenants/" + t.id, R"({"active":true})").status, 200u);
  EXPECT_EQ(pub("GET", "/api/v2/clients", t.key).status, 200u);
}

TEST_F(auth_test, operator_routes_need_the_operator_token) {
  auto missing =
      operator_client.request("POST", "/admin/v1/tenants", R"({"name":"x","plan":"PRO"})");
  EXPECT_EQ(missing.status, 401u);
  EXPECT_EQ(str(parse(missing.body), "message"), "Authorization header not found");
  auto wrong = operator_client.request("POST", "/admin/v1/tenants", R"({"name":"x","plan":"PRO"})",
                                       bearer(svc.operator_token() + "x"));
  EXPECT_EQ(wrong.status, 401u);
  EXPECT_EQ(str(parse(wrong.body), "message"), "Invalid operator token");
  auto t = create_tenant();
  // A tenant's API key is not an operator token.
  auto as_tenant = operator_client.request("GET", "/admin/v1/tenants/" + t.id, {}, bearer(t.key));
  EXPECT_EQ(as_tenant.status, 401u);
}

TEST_F(auth_test, operator_routes_are_not_on_the_public_listener) {
  auto r = public_client.request("POST", "/admin/v1/tenants", R"({"name":"x","plan":"PRO"})",
                                 bearer(svc.operator_token()));
  EXPECT_EQ(r.status, 404u);
}

} // namespace
} // namespace vcs::test
