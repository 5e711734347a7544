// The policy for passwords people choose: length, then zxcvbn's estimate
// of how many guesses find it.

#include "domain/password.hpp"

#include <gtest/gtest.h>

#include <string>

namespace vcs::domain {
namespace {

TEST(Password, CommonAndPatternedPasswordsAreRefusedInWords) {
  for (const char* weak : {"password1", "Password123!", "qwertyuiop", "12345678", "iloveyou1",
                           "P@ssw0rd", "letmein123", "abcdefgh"}) {
    auto refused = check_new_password(weak);
    ASSERT_TRUE(refused) << weak;
    EXPECT_EQ(refused->rfind("Too easy to guess", 0), 0u) << *refused;
  }
}

TEST(Password, LengthIsCheckedFirst) {
  EXPECT_EQ(check_new_password("x7#Qp"), "Must be 8 to 128 characters.");
  EXPECT_EQ(check_new_password(std::string(129, 'q')), "Must be 8 to 128 characters.");
}

TEST(Password, PhrasesOfUncommonWordsPass) {
  for (const char* fine : {"plum orchard 1", "correct horse battery", "s3cret-pass",
                           "tangerine lattice 42", "k9#vQ!mz2Lp"})
    EXPECT_EQ(check_new_password(fine), std::nullopt) << fine;
}

// The account's own e-mail counts as a known word.
TEST(Password, TheAccountsEmailIsAKnownWord) {
  EXPECT_EQ(check_new_password("mariposa.quill@acme.io"), std::nullopt);
  EXPECT_TRUE(check_new_password("mariposa.quill@acme.io", "mariposa.quill@acme.io"));
}

} // namespace
} // namespace vcs::domain
