#include "domain/api_key.hpp"

#include <regex>

#include <gtest/gtest.h>

namespace {

using namespace vcs::domain;

class ApiKey : public ::testing::Test {
protected:
  static void SetUpTestSuite() { init_crypto(); }
};

bool is_lower_hex(const std::string& text, std::size_t length) {
  return std::regex_match(text, std::regex("[0-9a-f]{" + std::to_string(length) + "}"));
}

TEST_F(ApiKey, InitIsRepeatable) {
  EXPECT_NO_THROW(init_crypto());
  EXPECT_NO_THROW(init_crypto());
}

TEST_F(ApiKey, GeneratedKeyHasTheDocumentedShape) {
  const auto generated = generate_api_key();
  EXPECT_TRUE(std::regex_match(generated.key, std::regex("vcs_[0-9a-f]{48}"))) << generated.key;
  EXPECT_EQ(generated.hash, hash_api_key(generated.key));
  EXPECT_EQ(generated.masked_key, mask_api_key(generated.key));
}

TEST_F(ApiKey, GeneratedKeysDiffer) {
  const auto a = generate_api_key();
  const auto b = generate_api_key();
  EXPECT_NE(a.key, b.key);
  EXPECT_NE(a.hash, b.hash);
}

TEST_F(ApiKey, HashIsBlake2b256InLowerHex) {
  // Reference value from Python's hashlib.blake2b(b"abc", digest_size=32).
  EXPECT_EQ(hash_api_key("abc"),
            "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319");
  const std::string key = "vcs_000000000000000000000000000000000000000000000000";
  EXPECT_EQ(hash_api_key(key), hash_api_key(key));
  EXPECT_TRUE(is_lower_hex(hash_api_key(key), 64));
  EXPECT_NE(hash_api_key(key), hash_api_key(key + "1"));
}

TEST_F(ApiKey, MaskShowsOnlyTheLastFourCharacters) {
  EXPECT_EQ(mask_api_key("vcs_0123456789abcdef0123456789abcdef0123456789abcdef"), "vcs_****cdef");
  const auto generated = generate_api_key();
  EXPECT_EQ(generated.masked_key, "vcs_****" + generated.key.substr(generated.key.size() - 4));
  EXPECT_EQ(mask_api_key("ab"), "vcs_****ab");
}

TEST_F(ApiKey, ConstantTimeEqual) {
  EXPECT_TRUE(constant_time_equal("", ""));
  EXPECT_TRUE(constant_time_equal("secret", "secret"));
  EXPECT_FALSE(constant_time_equal("secret", "secreT"));
  EXPECT_FALSE(constant_time_equal("Secret", "secret"));
  EXPECT_FALSE(constant_time_equal("secret", "secret2"));
  EXPECT_FALSE(constant_time_equal("secret", ""));
}

TEST_F(ApiKey, RandomHexIs64LowerHexDigitsAndVaries) {
  const auto a = random_hex_32();
  EXPECT_TRUE(is_lower_hex(a, 64)) << a;
  EXPECT_NE(a, random_hex_32());
}

} // namespace
