// Reading a vendor's list into pickers' items (outbound/inquiry_reply.hpp):
// only objects with a string id, names and numbers when sent, and one item
// past the most kept so that the answer can say there are more.

#include "outbound/inquiry_reply.hpp"
#include "json/json.hpp"

#include <gtest/gtest.h>

#include <string>

namespace vcs::outbound {
namespace {

TEST(InquiryReply, ItemsNeedAStringIdAndKeepTheirNameAndNumber) {
  auto doc = json::parse_json(
      R"([{"id":"a1","name":"Sales","number":"+14155550100"},{"id":7},{"name":"no id"},"x",)"
      R"({"id":"a2","name":null}])");
  ASSERT_TRUE(doc);
  auto out = items_of(&*doc, "id", "name", "number");
  ASSERT_TRUE(out);
  ASSERT_EQ(out->items.size(), 2u);
  EXPECT_EQ(out->items[0].id, "a1");
  EXPECT_EQ(out->items[0].name, "Sales");
  EXPECT_EQ(out->items[0].number, "+14155550100");
  EXPECT_EQ(out->items[1].id, "a2");
  EXPECT_FALSE(out->items[1].name);
  EXPECT_FALSE(out->items[1].number);
  // Without a number member, none is read.
  EXPECT_FALSE(items_of(&*doc, "id", nullptr)->items[0].number);
  EXPECT_FALSE(items_of(&*doc, "id", nullptr)->items[0].name);
}

TEST(InquiryReply, ANonArrayIsNotAList) {
  auto doc = json::parse_json(R"({"items":[]})");
  ASSERT_TRUE(doc);
  EXPECT_FALSE(items_of(&*doc, "id", "name"));
  EXPECT_FALSE(items_of(nullptr, "id", "name"));
}

TEST(InquiryReply, ReadingStopsOnePastTheMostKept) {
  std::string body = "[";
  for (int i = 0; i < 500; ++i)
    body += (i ? "," : "") + std::string{R"({"id":"n)"} + std::to_string(i) + "\"}";
  body += "]";
  auto doc = json::parse_json(body);
  ASSERT_TRUE(doc);
  auto out = items_of(&*doc, "id", "name");
  ASSERT_TRUE(out);
  EXPECT_EQ(out->items.size(), actors::inquiry_items_max + 1);
}

} // namespace
} // namespace vcs::outbound
