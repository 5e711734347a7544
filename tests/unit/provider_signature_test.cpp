#include "domain/provider_signature.hpp"

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

signature_check check_b(const std::string& header, std::string_view key, const std::string& b,
                        int64_t now) {
  return check_provider_signature(provider_b_signature, header, key, b, now);
}

} // namespace

TEST(provider_b_signature, signs_the_body_followed_by_the_milliseconds) {
  EXPECT_EQ(sign_provider(provider_b_signature, "key_test_123", body, at),
            "v=1733140000000,d=" + vector_digest);
}

TEST(provider_b_signature, accepts_its_own_signature_within_five_minutes) {
  auto header = sign_provider(provider_b_signature, "key_test_123", body, at);
  EXPECT_EQ(check_b(header, "key_test_123", body, at), signature_check::valid);
  EXPECT_EQ(check_b(header, "key_test_123", body, at + 300'000), signature_check::valid);
  EXPECT_EQ(check_b(header, "key_test_123", body, at - 300'000), signature_check::valid);
  EXPECT_EQ(check_provider_signature(provider_b_signature,
                                     " d=" + vector_digest + " , v=1733140000000,x=1",
                                     "key_test_123", body, at),
            signature_check::valid);
}

TEST(provider_b_signature, an_old_or_future_time_is_stale) {
  auto header = sign_provider(provider_b_signature, "key_test_123", body, at);
  EXPECT_EQ(check_b(header, "key_test_123", body, at + 300'001), signature_check::stale);
  EXPECT_EQ(check_b(header, "key_test_123", body, at - 300'001), signature_check::stale);
}

TEST(provider_b_signature, anything_else_is_invalid) {
  auto header = sign_provider(provider_b_signature, "key_test_123", body, at);
  EXPECT_EQ(check_b(header, "other_key", body, at), signature_check::invalid);
  EXPECT_EQ(check_b(header, "key_test_123", body + " ", at), signature_check::invalid);
  // The time is signed: moving it breaks the digest.
  EXPECT_EQ(check_b("v=1733140000001,d=" + vector_digest, "key_test_123", body, at),
            signature_check::invalid);
  for (const std::string& bad : std::vector<std::string>{
           "", "v=1733140000000", "d=" + vector_digest, "v=,d=" + vector_digest,
           "v=-1,d=" + vector_digest, "v=12a,d=" + vector_digest,
           "v=1733140000000,v=1733140000000,d=" + vector_digest,
           "v=1733140000000,d=" + vector_digest + ",d=" + vector_digest,
           "v=1733140000000,d=" + vector_digest.substr(1)})
    EXPECT_EQ(check_b(bad, "key_test_123", body, at), signature_check::invalid) << bad;
}

TEST(provider_b_signature, its_digest_is_what_a_replay_repeats) {
  EXPECT_EQ(signature_digest(provider_b_signature,
                             sign_provider(provider_b_signature, "key_test_123", body, at)),
            vector_digest);
  EXPECT_EQ(signature_digest(provider_b_signature, "v=1"), "");
}

namespace {

const std::string c_body = R"({"type":"post_call_transcription"})";
constexpr int64_t c_at = 1733140000000; // signed as whole seconds
// Python: hmac.new(b"wsec_test_123", b"1733140000." + c_body, sha256).hexdigest()
const std::string c_digest = "8e1d3fae196850f720fe67228578ec0b95fc245f826459d139a76ebdc0254fff";

} // namespace

TEST(provider_c_signature, signs_the_seconds_a_dot_and_the_body) {
  EXPECT_EQ(sign_provider(provider_c_signature, "wsec_test_123", c_body, c_at + 999),
            "t=1733140000,v0=" + c_digest);
}

TEST(provider_c_signature, accepts_thirty_minutes_old_and_five_ahead) {
  const std::string header = "t=1733140000,v0=" + c_digest;
  auto check = [&](const std::string& h, std::string_view key, const std::string& b, int64_t now) {
    return check_provider_signature(provider_c_signature, h, key, b, now);
  };
  EXPECT_EQ(check(header, "wsec_test_123", c_body, c_at), signature_check::valid);
  EXPECT_EQ(check(header, "wsec_test_123", c_body, c_at + 1'800'000), signature_check::valid);
  EXPECT_EQ(check(header, "wsec_test_123", c_body, c_at + 1'800'001), signature_check::stale);
  EXPECT_EQ(check(header, "wsec_test_123", c_body, c_at - 300'000), signature_check::valid);
  EXPECT_EQ(check(header, "wsec_test_123", c_body, c_at - 300'001), signature_check::stale);
  EXPECT_EQ(check("v0=" + c_digest + ", t=1733140000", "wsec_test_123", c_body, c_at),
            signature_check::valid);
  EXPECT_EQ(check(header, "other", c_body, c_at), signature_check::invalid);
  EXPECT_EQ(check(header, "wsec_test_123", c_body + " ", c_at), signature_check::invalid);
  // provider_b's items are not provider_c's.
  EXPECT_EQ(check("v=1733140000000,d=" + c_digest, "wsec_test_123", c_body, c_at),
            signature_check::invalid);
  EXPECT_EQ(check("t=1733140000,t=1733140000,v0=" + c_digest, "wsec_test_123", c_body, c_at),
            signature_check::invalid);
  EXPECT_EQ(signature_digest(provider_c_signature, header), c_digest);
}

TEST(provider_signature, a_replay_is_remembered_as_long_as_any_scheme_accepts_it) {
  for (const auto& s : {provider_b_signature, provider_c_signature})
    EXPECT_GE(signature_replay_window_ms, s.max_age_ms + s.max_ahead_ms);
}
