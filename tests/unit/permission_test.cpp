// What a key may do, and which keys it may make or change.
#include "domain/permission.hpp"

#include <gtest/gtest.h>

namespace vcs::domain {
namespace {

TEST(Permission, EveryNameReadsBackAndNothingElseDoes) {
  for (auto p : all_permissions)
    EXPECT_EQ(parse_permission(to_string(p)), p) << to_string(p);
  for (const char* bad : {"", "campaigns", "campaigns:", "CAMPAIGNS:READ", "campaigns:delete",
                          " campaigns:read", "keys:admin"})
    EXPECT_EQ(parse_permission(bad), std::nullopt) << bad;
}

TEST(Permission, ReadOnlyIsEveryReadAndNoWrite) {
  const auto ro = permission_set::read_only();
  EXPECT_EQ(ro.names().size(), 7u);
  for (auto p : all_permissions)
    EXPECT_EQ(ro.has(p), to_string(p).ends_with(":read")) << to_string(p);
  EXPECT_TRUE(ro.within(permission_set::all()));
  EXPECT_FALSE(permission_set::all().within(ro));
}

TEST(KeyScope, AKeyReachesOnlyItsCampaigns) {
  key_scope every;
  EXPECT_TRUE(every.reaches_campaign(42));
  key_scope some{.campaigns = std::vector<int64_t>{1, 2}};
  EXPECT_TRUE(some.reaches_campaign(2));
  EXPECT_FALSE(some.reaches_campaign(3));
}

TEST(KeyScope, AHolderMayGiveOrChangeOnlyWhatItReaches) {
  const auto soon = timestamp{std::chrono::seconds{1'000}};
  const auto later = timestamp{std::chrono::seconds{2'000}};
  key_scope holder{.permissions = permission_set::read_only(),
                   .campaigns = std::vector<int64_t>{1, 2},
                   .expires_at = later};
  key_scope same = holder;
  EXPECT_EQ(check_within(holder, same), std::nullopt);
  key_scope narrower{.permissions = {}, .campaigns = std::vector<int64_t>{2}, .expires_at = soon};
  narrower.permissions.add(permission::leads_read);
  EXPECT_EQ(check_within(holder, narrower), std::nullopt);

  auto more = same;
  more.permissions.add(permission::leads_write);
  ASSERT_TRUE(check_within(holder, more));
  EXPECT_EQ(check_within(holder, more)->message,
            "A key cannot reach more than the key that manages it: it lacks leads:write");
  EXPECT_EQ(check_within(holder, more)->code, errc::forbidden);
  auto everywhere = same;
  everywhere.campaigns.reset();
  EXPECT_TRUE(check_within(holder, everywhere));
  auto elsewhere = same;
  elsewhere.campaigns = std::vector<int64_t>{3};
  EXPECT_TRUE(check_within(holder, elsewhere));
  auto forever = same;
  forever.expires_at.reset();
  EXPECT_TRUE(check_within(holder, forever));
  auto longer = same;
  longer.expires_at = later + std::chrono::seconds{1};
  EXPECT_TRUE(check_within(holder, longer));
  // A key without limits may give any.
  EXPECT_EQ(check_within(key_scope{}, more), std::nullopt);
}

} // namespace
} // namespace vcs::domain
