#include "http/router.hpp"

#include <gtest/gtest.h>

namespace vcs::http {
namespace {

router table() {
  router r;
  r.add({"GET", "/api/v2/clients", nullptr});
  r.add({"GET", "/api/v2/clients/{client_id}", nullptr});
  r.add({"GET", "/api/v2/external-billing/payment-requests/{id}/", nullptr});
  r.add({"PATCH", "/api/v2/external-billing/payment-requests/{id}/update", nullptr});
  r.add({"DELETE", "/v1/api/voice-campaigns/{campaign_id}/lead/remove", nullptr,
         "Invalid request method"});
  return r;
}

TEST(Router, MatchesLiteralsAndPlaceholders) {
  auto r = table();
  auto m = r.find("GET", "/api/v2/clients/abc");
  ASSERT_EQ(m.result, router::outcome::matched);
  EXPECT_EQ(m.found->pattern, "/api/v2/clients/{client_id}");
  ASSERT_EQ(m.params.size(), 1u);
  EXPECT_EQ(m.params[0], "abc");
  EXPECT_EQ(r.find("GET", "/api/v2/clients").result, router::outcome::matched);
}

TEST(Router, TrailingSlashIsSignificant) {
  auto r = table();
  auto with = r.find("GET", "/api/v2/external-billing/payment-requests/7/");
  ASSERT_EQ(with.result, router::outcome::matched);
  EXPECT_EQ(with.params.at(0), "7");
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
