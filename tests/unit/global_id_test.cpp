#include "domain/global_id.hpp"

#include <limits>
#include <set>
#include <string>

#include <gtest/gtest.h>

namespace {

using namespace vcs::domain;

constexpr int64_t int64_max = std::numeric_limits<int64_t>::max();

// Expected encodings below were computed independently (Python's
// base64.b64encode) so the tests do not trust our own encoder.

TEST(GlobalId, TypeNamesMatchTheWireNames) {
  EXPECT_EQ(type_name(entity::tenant), "Tenant");
  EXPECT_EQ(type_name(entity::api_key), "ApiKey");
  EXPECT_EQ(type_name(entity::campaign), "VoiceCampaign");
  EXPECT_EQ(type_name(entity::lead), "CampaignLead");
  EXPECT_EQ(type_name(entity::client), "Client");
  EXPECT_EQ(type_name(entity::client_user), "ClientUser");
  EXPECT_EQ(type_name(entity::account_configuration), "AssetGroup");
  EXPECT_EQ(type_name(entity::web_widget), "WebWidget");
  EXPECT_EQ(type_name(entity::voice_provider), "TenantVoiceProvider");
  EXPECT_EQ(type_name(entity::client_form), "ClientForm");
  EXPECT_EQ(type_name(entity::form_submission), "FormSubmission");
  EXPECT_EQ(type_name(entity::phone_number_pool), "PhoneNumberPool");
  EXPECT_EQ(type_name(entity::lead_import), "LeadImport");
}

TEST(GlobalId, EncodesKnownValues) {
  EXPECT_EQ(encode_global_id(entity::tenant, 1), "VGVuYW50OjE=");
  EXPECT_EQ(encode_global_id(entity::campaign, 1), "Vm9pY2VDYW1wYWlnbjox");
  EXPECT_EQ(encode_global_id(entity::campaign, 12), "Vm9pY2VDYW1wYWlnbjoxMg==");
  EXPECT_EQ(encode_global_id(entity::lead, 5), "Q2FtcGFpZ25MZWFkOjU=");
  EXPECT_EQ(encode_global_id(entity::voice_provider, int64_max),
            "VGVuYW50Vm9pY2VQcm92aWRlcjo5MjIzMzcyMDM2ODU0Nzc1ODA3");
}

TEST(GlobalId, RoundTripsEveryKind) {
  // 1, 12 and 123 give payload lengths with all three padding shapes.
  for (const entity kind : all_entities) {
    for (const int64_t id :
         {int64_t{1}, int64_t{12}, int64_t{123}, int64_t{987654321}, int64_max}) {
      const auto text = encode_global_id(kind, id);
      EXPECT_EQ(decode_global_id(kind, text), id) << type_name(kind) << ' ' << text;
    }
  }
}

TEST(GlobalId, KindsNeverDecodeAsEachOther) {
  std::set<std::string> seen;
  for (const entity encoded : all_entities) {
    const auto text = encode_global_id(encoded, 42);
    EXPECT_TRUE(seen.insert(text).second) << text;
    for (const entity expected : all_entities) {
      if (expected != encoded) {
        EXPECT_EQ(decode_global_id(expected, text), std::nullopt)
            << type_name(encoded) << " as " << type_name(expected);
      }
    }
  }
}

TEST(GlobalId, RejectsTypeNamePrefixOfAnother) {
  // "Client" is a prefix of "ClientUser" and "ClientForm".
  EXPECT_EQ(decode_global_id(entity::client, encode_global_id(entity::client_user, 5)),
            std::nullopt);
  EXPECT_EQ(decode_global_id(entity::tenant, encode_global_id(entity::voice_provider, 5)),
            std::nullopt);
}

TEST(GlobalId, RejectsBadIdPart) {
  const char* payloads[] = {
      "Vm9pY2VDYW1wYWlnbjow",     // VoiceCampaign:0
      "Vm9pY2VDYW1wYWlnbjotMQ==", // VoiceCampaign:-1
      "Vm9pY2VDYW1wYWlnbjorMTI=", // VoiceCampaign:+12
      "Vm9pY2VDYW1wYWlnbjowMDc=", // VoiceCampaign:007
      "Vm9pY2VDYW1wYWlnbjogMTI=", // VoiceCampaign: 12
      "Vm9pY2VDYW1wYWlnbjoxMmE=", // VoiceCampaign:12a
      "Vm9pY2VDYW1wYWlnbjo=",     // VoiceCampaign:
      "Vm9pY2VDYW1wYWlnbg==",     // VoiceCampaign
      // VoiceCampaign:9223372036854775808 (int64 max + 1)
      "Vm9pY2VDYW1wYWlnbjo5MjIzMzcyMDM2ODU0Nzc1ODA4",
  };
  for (const char* text : payloads)
    EXPECT_EQ(decode_global_id(entity::campaign, text), std::nullopt) << text;
  EXPECT_EQ(decode_global_id(entity::campaign, "Vm9pY2VDYW1wYWlnbjo5MjIzMzcyMDM2ODU0Nzc1ODA3"),
            int64_max);
}

TEST(GlobalId, RejectsNonCanonicalBase64) {
  const char* texts[] = {
      "",
      "Vm9pY2VDYW1wYWlnbjoxMg",     // padding missing
      "Vm9pY2VDYW1wYWlnbjoxMg=",    // padding short
      "Vm9pY2VDYW1wYWlnbjoxMg===",  // padding long
      "Vm9pY2VDYW1wYWlnbjoxMh==",   // nonzero bits under the padding
      "Vm9pY2VDYW1wYWlnbjoxMg==\n", // trailing whitespace
      " Vm9pY2VDYW1wYWlnbjoxMg==",  // leading whitespace
      "Vm9pY2VDYW1w YWlnbjoxMg==",  // inner whitespace
      "Vm9pY2VDYW1wYWlnbjox====",   // padding group after a full payload
      "Vm9pY2VDYW1w=WlnbjoxMg==",   // padding in the middle
      "Vm9pY2VDYW1wYWlnbjox-A==",   // url-safe '-'
      "Vm9pY2VDYW1wYWlnbjox_A==",   // url-safe '_'
      "Vm9pY2VDYW1wYWlnbjox+A==",   // standard '+', but not a valid ID payload
      "not a global id",
  };
  for (const char* text : texts)
    EXPECT_EQ(decode_global_id(entity::campaign, text), std::nullopt) << '"' << text << '"';
}

TEST(GlobalId, RejectsOverlongInput) {
  const std::string huge = encode_global_id(entity::campaign, 1) + std::string(4000, 'A');
  EXPECT_EQ(decode_global_id(entity::campaign, huge), std::nullopt);
}

TEST(ParsePositiveInt, AcceptsPlainPositiveDecimals) {
  EXPECT_EQ(parse_positive_int("1"), 1);
  EXPECT_EQ(parse_positive_int("42"), 42);
  EXPECT_EQ(parse_positive_int("9223372036854775807"), int64_max);
}

TEST(ParsePositiveInt, RejectsEverythingElse) {
  const char* texts[] = {"",
                         "0",
                         "007",
                         "-1",
                         "+1",
                         " 1",
                         "1 ",
                         "1.0",
                         "1e3",
                         "0x1",
                         "\u0661",
                         "abc",
                         "9223372036854775808",
                         "99999999999999999999"};
  for (const char* text : texts)
    EXPECT_EQ(parse_positive_int(text), std::nullopt) << '"' << text << '"';
}

TEST(ParseId, AcceptsRawIntegerOrGlobalId) {
  EXPECT_EQ(parse_id(entity::client, "17"), 17);
  EXPECT_EQ(parse_id(entity::client, encode_global_id(entity::client, 17)), 17);
}

TEST(ParseId, RejectsOtherKindsAndGarbage) {
  EXPECT_EQ(parse_id(entity::client, encode_global_id(entity::campaign, 17)), std::nullopt);
  EXPECT_EQ(parse_id(entity::client, "0"), std::nullopt);
  EXPECT_EQ(parse_id(entity::client, "-17"), std::nullopt);
  EXPECT_EQ(parse_id(entity::client, ""), std::nullopt);
  EXPECT_EQ(parse_id(entity::client, "client-17"), std::nullopt);
}

} // namespace
