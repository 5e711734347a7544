#include "domain/plan.hpp"

#include <gtest/gtest.h>

namespace {

using namespace vcs::domain;

constexpr plan all_plans[] = {plan::free, plan::starter, plan::pro, plan::enterprise};

TEST(Plan, ParsesExactUpperCaseNames) {
  EXPECT_EQ(parse_plan("FREE"), plan::free);
  EXPECT_EQ(parse_plan("STARTER"), plan::starter);
  EXPECT_EQ(parse_plan("PRO"), plan::pro);
  EXPECT_EQ(parse_plan("ENTERPRISE"), plan::enterprise);
}

TEST(Plan, RejectsOtherSpellings) {
  for (const char* text : {"", "free", "Pro", "PRO ", " PRO", "PREMIUM", "PROFESSIONAL"})
    EXPECT_EQ(parse_plan(text), std::nullopt) << '"' << text << '"';
}

TEST(Plan, NamesRoundTrip) {
  for (const plan p : all_plans)
    EXPECT_EQ(parse_plan(to_string(p)), p);
}

TEST(Plan, DefaultCampaignLimits) {
  EXPECT_EQ(default_campaign_limit(plan::free), 3);
  EXPECT_EQ(default_campaign_limit(plan::starter), 10);
  EXPECT_EQ(default_campaign_limit(plan::pro), 100);
  EXPECT_EQ(default_campaign_limit(plan::enterprise), 1000);
}

TEST(Plan, ExternalBillingNeedsProOrAbove) {
  EXPECT_FALSE(allows_external_billing(plan::free));
  EXPECT_FALSE(allows_external_billing(plan::starter));
  EXPECT_TRUE(allows_external_billing(plan::pro));
  EXPECT_TRUE(allows_external_billing(plan::enterprise));
}

} // namespace

#include "domain/billing.hpp"

namespace {

TEST(BillingDecimal, AcceptsExactNonNegativeDecimals) {
  using vcs::domain::is_decimal;
  EXPECT_TRUE(is_decimal("0", 2));
  EXPECT_TRUE(is_decimal("19.99", 2));
  EXPECT_TRUE(is_decimal("0.0125", 4));
  EXPECT_TRUE(is_decimal("9999999999.99", 2));
  EXPECT_FALSE(is_decimal("0.125", 2));
  EXPECT_FALSE(is_decimal("-1", 2));
  EXPECT_FALSE(is_decimal("1.", 2));
  EXPECT_FALSE(is_decimal(".5", 2));
  EXPECT_FALSE(is_decimal("1e3", 2));
  EXPECT_FALSE(is_decimal("", 2));
  EXPECT_FALSE(is_decimal("12345678901", 2));
  EXPECT_FALSE(is_decimal("1,5", 2));
}

TEST(BillingCurrency, ThreeLetters) {
  using vcs::domain::is_currency;
  EXPECT_TRUE(is_currency("USD"));
  EXPECT_TRUE(is_currency("eur"));
  EXPECT_FALSE(is_currency("US"));
  EXPECT_FALSE(is_currency("US1"));
  EXPECT_FALSE(is_currency("USDD"));
}

} // namespace

namespace {

TEST(BillingUnits, ExactRoundTrips) {
  using vcs::domain::from_units;
  using vcs::domain::to_units;
  EXPECT_EQ(to_units("199.99", 4), 1999900);
  EXPECT_EQ(to_units("0.0125", 4), 125);
  EXPECT_EQ(to_units("7", 2), 700);
  EXPECT_EQ(from_units(1999900, 4), "199.99");
  EXPECT_EQ(from_units(700, 2), "7");
  EXPECT_EQ(from_units(700, 2, 2), "7.00");
  EXPECT_EQ(from_units(125, 4, 2), "0.0125");
  EXPECT_EQ(from_units(to_units("0.1", 4) + to_units("0.2", 4), 4), "0.3");
}

} // namespace
