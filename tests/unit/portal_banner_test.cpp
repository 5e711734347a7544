// The portal's billing banner (domain/portal_banner.hpp).

#include "domain/portal_banner.hpp"

#include <gtest/gtest.h>

namespace vcs::domain {
namespace {

TEST(PortalBanner, TheSubscriptionSaysItFirstThenUnpaidRequests) {
  EXPECT_EQ(banner_for("blocked", false), portal_banner::subscription_suspended);
  EXPECT_EQ(banner_for("blocked", true), portal_banner::subscription_suspended);
  EXPECT_EQ(banner_for("past_due", false), portal_banner::payment_overdue);
  EXPECT_EQ(banner_for("active", true), portal_banner::outstanding_balance);
  EXPECT_EQ(banner_for("", true), portal_banner::outstanding_balance);
  EXPECT_EQ(banner_for("active", false), portal_banner::none);
  EXPECT_EQ(title_of(portal_banner::payment_overdue), "Payment overdue – access restricted");
  EXPECT_EQ(to_string(portal_banner::outstanding_balance), "outstanding_balance");
}

} // namespace
} // namespace vcs::domain
