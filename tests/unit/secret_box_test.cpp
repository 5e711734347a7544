#include "domain/hex.hpp"
#include "domain/secret_box.hpp"
#include "domain/service_keys.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace vcs::domain;

secret_box::key_bytes key_filled_with(uint8_t byte) {
  secret_box::key_bytes key;
  key.fill(byte);
  return key;
}

std::string unhex(std::string_view hex) {
  return from_hex(hex).value();
}

const secret_box box{key_filled_with(0x42)};
constexpr std::string_view secret = R"({"provider_b_api_key":"sk_live_123"})";
constexpr std::string_view owner = "tenant:7";

TEST(Hex, EncodesLowerCase) {
  EXPECT_EQ(to_hex(""), "");
  EXPECT_EQ(to_hex(std::string{"\x00\x01\xAB\xff", 4}), "0001abff");
}

TEST(Hex, DecodesEitherCase) {
  EXPECT_EQ(from_hex("0001abff"), (std::string{"\x00\x01\xAB\xFF", 4}));
  EXPECT_EQ(from_hex("0001ABFF"), (std::string{"\x00\x01\xAB\xFF", 4}));
  EXPECT_EQ(from_hex(""), std::string{});
}

TEST(Hex, RejectsOddLengthAndNonHex) {
  for (const char* bad : {"0", "abc", "zz", "0g", "g0", " 00", "00 ", "0x00", "-1"})
    EXPECT_EQ(from_hex(bad), std::nullopt) << '"' << bad << '"';
}

TEST(Hex, RoundTripsEveryByte) {
  std::string bytes;
  for (int i = 0; i < 256; ++i)
    bytes += static_cast<char>(i);
  EXPECT_EQ(from_hex(to_hex(bytes)), bytes);
}

TEST(SecretBox, RoundTrip) {
  const auto sealed = box.seal(secret, owner);
  EXPECT_EQ(sealed.nonce.size(), 24u);
  EXPECT_EQ(sealed.ciphertext.size(), secret.size() + 16);
  EXPECT_EQ(sealed.ciphertext.find(secret), std::string::npos);
  EXPECT_EQ(box.open(sealed, owner), std::string{secret});
}

TEST(SecretBox, RoundTripsEmptyAndBinaryMessages) {
  EXPECT_EQ(box.open(box.seal("", owner), owner), std::string{});
  const std::string binary{"\x00\xFF\x00secret", 9};
  EXPECT_EQ(box.open(box.seal(binary, ""), ""), binary);
}

TEST(SecretBox, TwoSealsUseDistinctNonces) {
  const auto a = box.seal(secret, owner);
  const auto b = box.seal(secret, owner);
  EXPECT_NE(a.nonce, b.nonce);
  EXPECT_NE(a.ciphertext, b.ciphertext);
}

TEST(SecretBox, FlippedCiphertextByteIsRejected) {
  const auto sealed = box.seal(secret, owner);
  for (std::size_t i :
       {std::size_t{0}, sealed.ciphertext.size() / 2, sealed.ciphertext.size() - 1}) {
    auto tampered = sealed;
    tampered.ciphertext[i] = static_cast<char>(tampered.ciphertext[i] ^ 0x01);
    EXPECT_EQ(box.open(tampered, owner), std::nullopt) << "byte " << i;
  }
}

TEST(SecretBox, WrongAssociatedDataIsRejected) {
  const auto sealed = box.seal(secret, owner);
  EXPECT_EQ(box.open(sealed, "tenant:8"), std::nullopt);
  EXPECT_EQ(box.open(sealed, ""), std::nullopt);
}

TEST(SecretBox, WrongKeyIsRejected) {
  const secret_box other{key_filled_with(0x43)};
  EXPECT_EQ(other.open(box.seal(secret, owner), owner), std::nullopt);
}

TEST(SecretBox, WrongNonceIsRejected) {
  auto sealed = box.seal(secret, owner);
  sealed.nonce[23] = static_cast<char>(sealed.nonce[23] ^ 0x80);
  EXPECT_EQ(box.open(sealed, owner), std::nullopt);
  sealed.nonce = box.seal(secret, owner).nonce; // another message's nonce
  EXPECT_EQ(box.open(sealed, owner), std::nullopt);
}

TEST(SecretBox, MalformedBoxesAreRejected) {
  const auto sealed = box.seal(secret, owner);
  auto short_nonce = sealed;
  short_nonce.nonce.pop_back();
  EXPECT_EQ(box.open(short_nonce, owner), std::nullopt);
  auto truncated = sealed;
  truncated.ciphertext.resize(15); // shorter than the tag
  EXPECT_EQ(box.open(truncated, owner), std::nullopt);
  auto empty = sealed;
  empty.ciphertext.clear();
  EXPECT_EQ(box.open(empty, owner), std::nullopt);
}

// draft-irtf-cfrg-xchacha-03, appendix A.3.1: proves the construction is
// XChaCha20-Poly1305 (IETF) with the ciphertext laid out as message + tag.
TEST(SecretBox, OpensThePublishedXChaChaTestVector) {
  const auto key_text = unhex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");
  secret_box::key_bytes key{};
  std::copy(key_text.begin(), key_text.end(), key.begin());
  const secret_box keyed{key};
  const secret_box::sealed sealed{
      unhex("bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb"
            "731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452"
            "2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
            "21f9664c97637da9768812f615c68b13b52e"
            "c0875924c1c7987947deafd8780acf49"),
      unhex("404142434445464748494a4b4c4d4e4f5051525354555657")};
  EXPECT_EQ(keyed.open(sealed, unhex("50515253c0c1c2c3c4c5c6c7")),
            "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for "
            "the future, sunscreen would be it.");
}

// A box opens what its second key sealed, and seals only with its first.
TEST(SecretBox, OpensWithTheKeyItAlsoOpensButSealsWithItsOwn) {
  const secret_box old_box{key_filled_with(0x01)};
  const secret_box box{key_filled_with(0x02), key_filled_with(0x01)};
  EXPECT_EQ(box.open(old_box.seal(secret, owner), owner), std::string{secret});
  EXPECT_EQ(old_box.open(box.seal(secret, owner), owner), std::nullopt);
  EXPECT_EQ(box.open(old_box.seal(secret, owner), "another owner"), std::nullopt);
}

TEST(ServiceKeys, ParsesSixtyFourHexDigitsOfEitherCase) {
  const auto from_lower = service_keys::from_hex(std::string(64, 'a'));
  const auto from_upper = service_keys::from_hex(std::string(64, 'A'));
  ASSERT_TRUE(from_lower.has_value());
  ASSERT_TRUE(from_upper.has_value());
  // Both spell the key of 32 0xAA bytes.
  EXPECT_EQ(from_lower->legacy, key_filled_with(0xAA));
  EXPECT_EQ(from_lower->sealing, from_upper->sealing);
  EXPECT_EQ(from_lower->callback_signing, from_upper->callback_signing);
}

// One key per purpose: neither derived key is the service key or the other.
TEST(ServiceKeys, DerivesADifferentKeyForEachPurpose) {
  const auto keys = *service_keys::from_hex(std::string(64, 'a'));
  const std::string sealing(keys.sealing.begin(), keys.sealing.end());
  const std::string legacy(keys.legacy.begin(), keys.legacy.end());
  EXPECT_NE(sealing, legacy);
  EXPECT_NE(keys.callback_signing, legacy);
  EXPECT_NE(keys.callback_signing, sealing);
  EXPECT_EQ(keys.callback_signing.size(), 32u);
  // Its box seals with the sealing key and still opens the service key's.
  const secret_box sealing_only{keys.sealing};
  const secret_box service_key_itself{keys.legacy};
  EXPECT_EQ(sealing_only.open(keys.box().seal(secret, owner), owner), std::string{secret});
  EXPECT_EQ(keys.box().open(service_key_itself.seal(secret, owner), owner), std::string{secret});
  EXPECT_NE(service_keys::from_hex(std::string(64, 'b'))->sealing, keys.sealing);
}

TEST(ServiceKeys, RejectsWrongLengthsAndNonHex) {
  for (const std::string& bad : {std::string(63, 'a'), std::string(65, 'a'), std::string(62, 'a'),
                                 std::string(66, 'a'), std::string{}, std::string(63, 'a') + "g",
                                 std::string(63, 'a') + " ", " " + std::string(64, 'a')})
    EXPECT_EQ(service_keys::from_hex(bad), std::nullopt) << '"' << bad << '"';
}

} // namespace
