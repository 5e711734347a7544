#include "http/work/router.hpp"

#include <gtest/gtest.h>

namespace vcs::http {
namespace {

router table() {
  router r;
  r.add({"GET", "/api/v2/clients", nullptr});
  r.add({"GET", "/api/v2/clients/{client_id}", nullptr});
  r.add({"GET", "/admin/v1/tenants/{tenant_id}/do-not-call/{phone_number}", nullptr});
  r.add({"GET", "/api/v2/external-billing/payment-requests/{id}/", nullptr});
  r.add({"PATCH", "/api/v2/external-billing/payment-requests/{id}/update", nullptr});
  r.add({"DELETE", "/v1/api/voice-campaigns/{campaign_id}/lead/remove", nullptr, std::nullopt,
         "Invalid request method"});
  return r;
}

TEST(Router, MatchesLiteralsAndPlaceholders) {
  auto r = table();
  auto m = r.find("GET", "/api/v2/clients/abc");
  ASSERT_EQ(m.result, router::outcome::matched);
  EXPECT_EQ(m.found->pattern, "/api/v2/clients/{client_id}");
  EXPECT_EQ(m.params.get("client_id"), "abc");
  EXPECT_EQ(r.find("GET", "/api/v2/clients").result, router::outcome::matched);
}

TEST(Router, ParametersAreReadByTheirPlaceholderNames) {
  auto r = table();
  auto m = r.find("GET", "/admin/v1/tenants/7/do-not-call/+14155552671");
  ASSERT_EQ(m.result, router::outcome::matched);
  EXPECT_EQ(m.params.get("phone_number"), "+14155552671");
  EXPECT_EQ(m.params.get("tenant_id"), "7");
}

TEST(Router, TrailingSlashIsSignificant) {
  auto r = table();
  auto with = r.find("GET", "/api/v2/external-billing/payment-requests/7/");
  ASSERT_EQ(with.result, router::outcome::matched);
  EXPECT_EQ(with.params.get("id"), "7");
  EXPECT_EQ(r.find("GET", "/api/v2/external-billing/payment-requests/7").result,
            router::outcome::not_found);
  EXPECT_EQ(r.find("GET", "/api/v2/clients/").result, router::outcome::not_found);
}

TEST(Router, PlaceholdersNeverMatchEmptySegments) {
  auto r = table();
  EXPECT_EQ(r.find("GET", "/api/v2/external-billing/payment-requests//").result,
            router::outcome::not_found);
}

TEST(Router, WrongMethodListsAllowedMethodsAndRouteMessage) {
  auto r = table();
  auto m = r.find("POST", "/api/v2/clients/x");
  ASSERT_EQ(m.result, router::outcome::wrong_method);
  EXPECT_EQ(m.allow, "GET");
  EXPECT_EQ(m.wrong_method_message, "Method not allowed");
  auto v1 = r.find("PATCH", "/v1/api/voice-campaigns/c/lead/remove");
  ASSERT_EQ(v1.result, router::outcome::wrong_method);
  EXPECT_EQ(v1.wrong_method_message, "Invalid request method");
}

TEST(Router, UnknownPathsAreNotFound) {
  auto r = table();
  EXPECT_EQ(r.find("GET", "/").result, router::outcome::not_found);
  EXPECT_EQ(r.find("GET", "/api/v2").result, router::outcome::not_found);
  EXPECT_EQ(r.find("GET", "/api/v2/clients/a/b").result, router::outcome::not_found);
}

} // namespace
} // namespace vcs::http
