#include "domain/provider_b_signature.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace vcs::domain;

namespace {

const std::string body = R"({"event":"call_started"})";
constexpr int64_t at = 1733140000000;
// Python: hmac.new(b"key_test_123", body + b"1733140000000", sha256).hexdigest()
const std::string vector_digest =
    "c476cbfda4aab53d6e224b57811644a1ad98becb817ef73fbfcfd5bc8ba67421";

} // namespace

TEST(provider_b_signature, signs_the_body_followed_by_the_milliseconds) {
  EXPECT_EQ(sign_provider_b("key_test_123", body, at), "v=1733140000000,d=" + vector_digest);
}

TEST(provider_b_signature, accepts_its_own_signature_within_five_minutes) {
  auto header = sign_provider_b("key_test_123", body, at);
  EXPECT_EQ(check_provider_b_signature(header, "key_test_123", body, at), provider_b_check::valid);
  EXPECT_EQ(check_provider_b_signature(header, "key_test_123", body, at + 300'000),
            provider_b_check::valid);
  EXPECT_EQ(check_provider_b_signature(header, "key_test_123", body, at - 300'000),
            provider_b_check::valid);
  EXPECT_EQ(check_provider_b_signature(" d=" + vector_digest + " , v=1733140000000,x=1",
                                       "key_test_123", body, at),
            provider_b_check::valid);
}

TEST(provider_b_signature, an_old_or_future_time_is_stale) {
  auto header = sign_provider_b("key_test_123", body, at);
  EXPECT_EQ(check_provider_b_signature(header, "key_test_123", body, at + 300'001),
            provider_b_check::stale);
  EXPECT_EQ(check_provider_b_signature(header, "key_test_123", body, at - 300'001),
            provider_b_check::stale);
}

TEST(provider_b_signature, anything_else_is_invalid) {
  auto header = sign_provider_b("key_test_123", body, at);
  EXPECT_EQ(check_provider_b_signature(header, "other_key", body, at), provider_b_check::invalid);
  EXPECT_EQ(check_provider_b_signature(header, "key_test_123", body + " ", at),
            provider_b_check::invalid);
  // The time is signed: moving it breaks the digest.
  EXPECT_EQ(
      check_provider_b_signature("v=1733140000001,d=" + vector_digest, "key_test_123", body, at),
      provider_b_check::invalid);
  for (const std::string& bad : std::vector<std::string>{
           "", "v=1733140000000", "d=" + vector_digest, "v=,d=" + vector_digest,
           "v=-1,d=" + vector_digest, "v=12a,d=" + vector_digest,
           "v=1733140000000,v=1733140000000,d=" + vector_digest,
           "v=1733140000000,d=" + vector_digest + ",d=" + vector_digest,
           "v=1733140000000,d=" + vector_digest.substr(1)})
    EXPECT_EQ(check_provider_b_signature(bad, "key_test_123", body, at), provider_b_check::invalid)
        << bad;
}

TEST(provider_b_signature, its_digest_is_what_a_replay_repeats) {
  EXPECT_EQ(provider_b_digest(sign_provider_b("key_test_123", body, at)), vector_digest);
  EXPECT_EQ(provider_b_digest("v=1"), "");
}
