// Bodies the service takes as JSON: only text PostgreSQL can store, so a
// value accepted here never fails a statement (or a stored import) later.
#include "domain/campaign_errors.hpp"
#include "http/inputs/json.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using vcs::http::is_storable_text;
using vcs::http::parse_json;

TEST(parse_json, takes_ascii_and_utf8_text_in_values_and_names) {
  EXPECT_TRUE(parse_json(R"({"a":"plain","b":["x",1,{"c":"d"}]})"));
  EXPECT_TRUE(parse_json("{\"caf\xC3\xA9\":\"\xE2\x82\xAC \xF0\x9F\x93\x9E\"}"));
  EXPECT_TRUE(parse_json(R"({"k":"\u00e9 \ud83d\udcde"})")) << "a surrogate pair is one character";
}

TEST(parse_json, refuses_text_postgresql_cannot_store) {
  EXPECT_FALSE(parse_json(R"({"k":"a\u0000b"})")) << "NUL";
  EXPECT_FALSE(parse_json(R"({"a\u0000":"b"})")) << "NUL in a member name";
  EXPECT_FALSE(parse_json(R"({"k":"\udc00"})")) << "a lone low surrogate";
  EXPECT_FALSE(parse_json("{\"k\":\"\xC3\"}")) << "a cut sequence";
  EXPECT_FALSE(parse_json("{\"k\":\"\xC0\xAF\"}")) << "an overlong form";
  EXPECT_FALSE(parse_json("[\"\xED\xA0\x80\"]")) << "a surrogate written as bytes";
  EXPECT_FALSE(parse_json("[\"\xF4\x90\x80\x80\"]")) << "past U+10FFFF";
}

// Arrays and objects nest at most 64 deep; deeper bodies are refused
// before the parser recurses into them, however deep they go.
TEST(parse_json, takes_nesting_64_deep_and_refuses_65) {
  auto arrays = [](std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  auto objects = [](std::size_t depth) {
    std::string text;
    for (std::size_t i = 0; i < depth; ++i)
      text += R"({"a":)";
    text += "1";
    return text + std::string(depth, '}');
  };
  EXPECT_TRUE(parse_json(arrays(64)));
  EXPECT_FALSE(parse_json(arrays(65)));
  EXPECT_TRUE(parse_json(objects(64)));
  EXPECT_FALSE(parse_json(objects(65)));
  EXPECT_FALSE(parse_json(std::string(200'000, '[')));
  EXPECT_TRUE(parse_json("[" + arrays(63) + "," + arrays(63) + "]")) << "depth, not brackets";
}

TEST(parse_json, takes_one_value_and_nothing_after_it) {
  EXPECT_TRUE(parse_json(" [1, {\"a\": null}] \n"));
  EXPECT_FALSE(parse_json("[1] x"));
  EXPECT_FALSE(parse_json("{}{}"));
  EXPECT_FALSE(parse_json("[1,"));
  EXPECT_FALSE(parse_json(""));
  auto doc = parse_json(R"({"n":-3,"big":18446744073709551615,"f":1.5,"t":true,"s":"x"})");
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["n"].GetInt(), -3);
  EXPECT_EQ((*doc)["big"].GetUint64(), 18446744073709551615u);
  EXPECT_EQ((*doc)["f"].GetDouble(), 1.5);
  EXPECT_TRUE((*doc)["t"].GetBool());
  EXPECT_STREQ((*doc)["s"].GetString(), "x");
}

// The ASCII pass and the decoder agree at the boundary between them.
TEST(is_storable_text, ascii_is_stored_as_is_and_the_rest_is_decoded) {
  std::string ascii;
  for (int c = 1; c < 128; ++c)
    ascii += static_cast<char>(c);
  EXPECT_TRUE(is_storable_text(ascii));
  EXPECT_TRUE(is_storable_text(""));
  EXPECT_FALSE(is_storable_text(std::string{"a\0b", 3}));
  EXPECT_FALSE(is_storable_text(ascii + std::string{"\0", 1} + "\xC3\xA9"));
  EXPECT_TRUE(is_storable_text(ascii + "\xC3\xA9"));
  EXPECT_FALSE(is_storable_text(ascii + "\x80"));
  EXPECT_FALSE(is_storable_text(ascii + "\xFF"));
}

// The domain's error is the same on every route; a route's envelope adds
// `success: false` to the errors it names and names the allowed values.
TEST(error_json, a_routes_envelope_shapes_the_same_error) {
  const vcs::http::error_envelope status_route{
      [](const vcs::domain::error& e) { return e.code == vcs::domain::errc::conflict; },
      "valid_statuses"};
  auto plain = parse_json(vcs::http::error_json(vcs::domain::invalid_campaign_status()));
  ASSERT_TRUE(plain);
  EXPECT_TRUE((*plain)["valid_values"].IsArray());
  EXPECT_FALSE(plain->HasMember("valid_statuses"));
  auto named =
      parse_json(vcs::http::error_json(vcs::domain::invalid_campaign_status(), status_route));
  ASSERT_TRUE(named);
  EXPECT_EQ((*named)["valid_statuses"].Size(), 5u);
  EXPECT_FALSE(named->HasMember("valid_values"));
  EXPECT_FALSE(named->HasMember("success")) << "a 400 of that route has no flag";
  auto refused = parse_json(
      vcs::http::error_json(vcs::domain::campaign_status_rejected("ENDED"), status_route));
  ASSERT_TRUE(refused);
  EXPECT_FALSE((*refused)["success"].GetBool());
  EXPECT_STREQ((*refused)["error"].GetString(), "ENDED");
  auto elsewhere = parse_json(vcs::http::error_json(vcs::domain::campaign_status_rejected("x")));
  ASSERT_TRUE(elsewhere);
  EXPECT_FALSE(elsewhere->HasMember("success"));
}

} // namespace
