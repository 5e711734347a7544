// Members' roles, who may give whom which role, the owner a tenant keeps,
// e-mails, passwords and the sign-in throttle's waits.
#include "domain/member.hpp"
#include "domain/password.hpp"
#include "domain/sign_in_throttle.hpp"

#include <gtest/gtest.h>

namespace vcs::domain {
namespace {

using namespace std::chrono_literals;

TEST(MemberRole, EveryRoleReadsBackAndNothingElseDoes) {
  for (auto r : {member_role::owner, member_role::admin, member_role::viewer})
    EXPECT_EQ(parse_member_role(to_string(r)), r);
  for (const char* bad : {"", "Owner", "OWNER", "root", "viewer "})
    EXPECT_EQ(parse_member_role(bad), std::nullopt) << bad;
}

TEST(MemberRole, RolesMapOntoPermissionSets) {
  EXPECT_EQ(role_permissions(member_role::owner), permission_set::all());
  EXPECT_EQ(role_permissions(member_role::viewer), permission_set::read_only());
  const auto admin = role_permissions(member_role::admin);
  for (auto p : all_permissions)
    EXPECT_EQ(admin.has(p), p != permission::members_write) << to_string(p);
}

TEST(MemberRole, NoCallerGivesARoleThatReachesMoreThanItHolds) {
  const key_scope everything;
  for (auto r : {member_role::owner, member_role::admin, member_role::viewer})
    EXPECT_EQ(check_role_within(everything, r), std::nullopt);
  const key_scope admin{.permissions = role_permissions(member_role::admin)};
  EXPECT_EQ(check_role_within(admin, member_role::admin), std::nullopt);
  auto refused = check_role_within(admin, member_role::owner);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code, errc::forbidden);
  EXPECT_EQ(refused->message,
            "A member cannot be given more than its maker holds: it lacks members:write");
  const key_scope one_campaign{.campaigns = std::vector<int64_t>{7}};
  EXPECT_TRUE(check_role_within(one_campaign, member_role::viewer));
  const key_scope expiring{.expires_at = now() + std::chrono::hours{1}};
  EXPECT_TRUE(check_role_within(expiring, member_role::viewer));
}

TEST(MemberRole, ATenantKeepsAnOwnerWhoCanSignIn) {
  const member_info owner{.role = member_role::owner, .active = true};
  EXPECT_TRUE(check_keeps_an_owner(owner, member_role::admin, 1));
  EXPECT_TRUE(check_keeps_an_owner(owner, std::nullopt, 1));
  EXPECT_EQ(check_keeps_an_owner(owner, member_role::owner, 1), std::nullopt);
  EXPECT_EQ(check_keeps_an_owner(owner, std::nullopt, 2), std::nullopt);
  // An owner who never set a password is not the one that signs in.
  const member_info invited{.role = member_role::owner, .active = false};
  EXPECT_EQ(check_keeps_an_owner(invited, std::nullopt, 1), std::nullopt);
  const member_info viewer{.role = member_role::viewer, .active = true};
  EXPECT_EQ(check_keeps_an_owner(viewer, std::nullopt, 1), std::nullopt);
  EXPECT_EQ(check_keeps_an_owner(owner, member_role::viewer, 1)->code, errc::conflict);
}

TEST(MemberEmail, OneAtSignAndNoSpaces) {
  for (const char* ok : {"a@b", "ana.maria+ops@example.com", "x@localhost"})
    EXPECT_TRUE(valid_member_email(ok)) << ok;
  for (const char* bad : {"", "ab", "@b.c", "a@", "a@b@c", "a b@c.d", "a@b\tc", "a\x7f@b.c"})
    EXPECT_FALSE(valid_member_email(bad)) << bad;
  EXPECT_TRUE(valid_member_email(std::string(250, 'a') + "@b.c"));
  EXPECT_FALSE(valid_member_email(std::string(251, 'a') + "@b.c"));
}

TEST(Password, VerifiesOnlyItsOwnHash) {
  const auto hash = hash_password("correct horse battery");
  EXPECT_TRUE(hash.starts_with("$argon2id$"));
  EXPECT_TRUE(verify_password(hash, "correct horse battery"));
  EXPECT_FALSE(verify_password(hash, "correct horse batterY"));
  EXPECT_FALSE(verify_password(std::nullopt, "correct horse battery"));
  EXPECT_FALSE(verify_password(std::nullopt, std::string(password_max_length + 1, 'x')));
}

TEST(SignInThrottle, FreeFailuresThenDoublingLocksUpToFifteenMinutes) {
  for (int n = 0; n <= free_account_failures; ++n)
    EXPECT_EQ(account_lock_after(n), 0s) << n;
  EXPECT_EQ(account_lock_after(6), 30s);
  EXPECT_EQ(account_lock_after(7), 60s);
  EXPECT_EQ(account_lock_after(8), 120s);
  EXPECT_EQ(account_lock_after(10), 480s);
  EXPECT_EQ(account_lock_after(11), 900s);
  EXPECT_EQ(account_lock_after(1'000'000), 900s);
}

} // namespace
} // namespace vcs::domain
