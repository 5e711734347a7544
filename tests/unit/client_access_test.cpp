// What a client user's level allows (domain/client_access.hpp): the levels
// in order, a kind without a given level, and when a payment shuts the
// portal.

#include "domain/client_access.hpp"

#include <gtest/gtest.h>

namespace vcs::domain {
namespace {

TEST(ClientAccess, LevelsReadAndCompareInTheOrderOfWhatTheyAllow) {
  for (auto l : {access_level::no_access, access_level::view_only, access_level::view_and_add,
                 access_level::full_access})
    EXPECT_EQ(parse_access_level(to_string(l)), l);
  EXPECT_FALSE(parse_access_level("everything"));
  EXPECT_FALSE(parse_access_level("VIEW_ONLY"));
  EXPECT_LT(access_level::no_access, access_level::view_only);
  EXPECT_LT(access_level::view_only, access_level::view_and_add);
  EXPECT_LT(access_level::view_and_add, access_level::full_access);
}

TEST(ClientAccess, AKindWithoutALevelIsViewOnlyAndAnUnknownOneNoAccess) {
  const std::vector<std::pair<std::string, std::string>> given{{"campaign", "view_and_add"},
                                                               {"assistant", "owner"}};
  EXPECT_EQ(level_of(given, "campaign"), access_level::view_and_add);
  EXPECT_EQ(level_of(given, "phone_number"), access_level::view_only);
  EXPECT_EQ(level_of(given, "assistant"), access_level::no_access);
}

TEST(ClientAccess, PastDueAndBlockedShutThePortalWithAMessageSayingWhenItReturns) {
  EXPECT_TRUE(portal_blocked("past_due"));
  EXPECT_TRUE(portal_blocked("blocked"));
  EXPECT_FALSE(portal_blocked("active"));
  EXPECT_FALSE(portal_blocked(""));
  EXPECT_FALSE(portal_blocked("canceled"));
  for (auto status : {"past_due", "blocked"}) {
    auto e = portal_payment_required(status);
    EXPECT_EQ(e.code, errc::forbidden);
    EXPECT_NE(e.message.find("access returns when the payment is recorded"), std::string::npos);
  }
  EXPECT_NE(portal_payment_required("blocked").message.find("Subscription suspended"),
            std::string::npos);
  EXPECT_EQ(client_level_too_low(access_level::view_only, access_level::full_access).message,
            "Your access to campaigns is view only; this needs full access");
}

} // namespace
} // namespace vcs::domain
