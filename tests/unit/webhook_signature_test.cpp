#include "domain/webhook_signature.hpp"

#include "domain/standard_webhook.hpp"

#include <string>

#include <gtest/gtest.h>

namespace vcs::domain {
namespace {

constexpr std::string_view secret = "whsec_test";
constexpr std::string_view body = R"({"a":1})";
constexpr int64_t t = 1'700'000'000;
// Obtained once with OpenSSL, independently of libsodium:
//   printf '%s' '1700000000.{"a":1}' | openssl dgst -sha256 -hmac 'whsec_test'
constexpr std::string_view expected_mac =
    "38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789";

std::string header_with(std::string_view mac) {
  return "t=" + std::to_string(t) + ",v1=" + std::string{mac};
}

TEST(webhook_signature, known_vector) {
  EXPECT_EQ(sign_webhook({std::string{secret}}, t, body), header_with(expected_mac));
}

TEST(webhook_signature, key_longer_than_a_hmac_block) {
  // A 100-byte key (HMAC hashes keys over 64 bytes first):
  //   printf '%s' '1700000000.hello' |
  //     openssl dgst -sha256 -hmac "$(printf 'k%.0s' $(seq 1 100))"
  EXPECT_EQ(sign_webhook({std::string(100, 'k')}, t, "hello"),
            header_with("0e8d224aefc4953ac5f6c791d5ebec57dfbc0cde3ffbdbab5ee3cad02a696eba"));
}

TEST(webhook_signature, verifies_within_tolerance) {
  const std::string header = sign_webhook({std::string{secret}}, t, body);
  EXPECT_TRUE(verify_webhook(header, secret, body, t, 300));
  EXPECT_TRUE(verify_webhook(header, secret, body, t + 300, 300));
  EXPECT_TRUE(verify_webhook(header, secret, body, t - 300, 300));
  EXPECT_FALSE(verify_webhook(header, secret, body, t + 301, 300)); // stale
  EXPECT_FALSE(verify_webhook(header, secret, body, t - 301, 300)); // from the future
  EXPECT_FALSE(verify_webhook(header, secret, body, t, -1));
}

TEST(webhook_signature, tampering_fails) {
  const std::string header = sign_webhook({std::string{secret}}, t, body);
  EXPECT_FALSE(verify_webhook(header, secret, R"({"a":2})", t, 300));
  EXPECT_FALSE(verify_webhook(header, secret, "", t, 300));
  EXPECT_FALSE(verify_webhook(header, "whsec_other", body, t, 300));
  // The same signature under another timestamp.
  const std::string moved = "t=" + std::to_string(t + 1) + ",v1=" + std::string{expected_mac};
  EXPECT_FALSE(verify_webhook(moved, secret, body, t, 300));
  std::string flipped = header;
  flipped.back() = flipped.back() == '0' ? '1' : '0';
  EXPECT_FALSE(verify_webhook(flipped, secret, body, t, 300));
}

TEST(webhook_signature, malformed_headers_fail) {
  const std::string mac{expected_mac};
  const std::string ts = std::to_string(t);
  for (const std::string& header : {
           std::string{},
           "t=" + ts,                                 // no signature
           "v1=" + mac,                               // no timestamp
           "t=" + ts + ",t=" + ts + ",v1=" + mac,     // two timestamps
           "t=,v1=" + mac,                            // empty timestamp
           "t=17e8,v1=" + mac,                        // not digits
           "t=-" + ts + ",v1=" + mac,                 // signed
           "t=1700000000000000000000,v1=" + mac,      // overflowing
           "t=" + ts + ",v1=" + mac.substr(1),        // short signature
           "t=" + ts + ",v1=" + mac + "00",           // long signature
           "t=" + ts + ",v1=" + std::string(64, 'G'), // not hex
           // upper-case hex
           "t=" + ts + ",v1=38877139021993B830AF32FEEA6E18A8DA83EB2F6E49EE50BD9E4CF4CA4D3789",
           "t=" + ts + ",v1=" + mac + ",", // empty item
           "t=" + ts + ",v1",              // no '='
           "t=" + ts + ";v1=" + mac,       // wrong separator
           "=" + ts + ",v1=" + mac,        // empty key
       })
    EXPECT_FALSE(verify_webhook(header, secret, body, t, 300)) << header;
}

TEST(webhook_signature, accepts_any_order_several_signatures_and_other_schemes) {
  const std::string mac{expected_mac};
  const std::string ts = std::to_string(t);
  const std::string other(64, 'a'); // e.g. made with a rotated-out secret
  for (const std::string& header : {
           "v1=" + mac + ",t=" + ts,
           "t=" + ts + ",v1=" + other + ",v1=" + mac,
           "t=" + ts + ",v1=" + mac + ",v1=" + other,
           "t=" + ts + ", v1=" + mac,
           "t=" + ts + ",v0=whatever,v1=" + mac,
       })
    EXPECT_TRUE(verify_webhook(header, secret, body, t, 300)) << header;
  EXPECT_FALSE(verify_webhook("t=" + ts + ",v1=" + other, secret, body, t, 300));
}

TEST(webhook_signature, new_secret_format) {
  const std::string a = new_webhook_secret();
  const std::string b = new_webhook_secret();
  // Standard Webhooks' form: the prefix, then the base64 of 32 bytes.
  ASSERT_EQ(a.size(), 6u + 44u);
  EXPECT_EQ(a.substr(0, 6), "whsec_");
  EXPECT_EQ(
      a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 6),
      a.size() - 1);
  EXPECT_EQ(a.back(), '=');
  ASSERT_TRUE(standard_webhook_key(a));
  EXPECT_EQ(standard_webhook_key(a)->size(), 32u);
  EXPECT_NE(a, b);
  EXPECT_TRUE(verify_webhook(sign_webhook({a}, t, body), a, body, t, 0));
}

TEST(webhook_signature, header_name) {
  EXPECT_EQ(legacy_signature_header, "X-VCS-Signature");
}

} // namespace
} // namespace vcs::domain
