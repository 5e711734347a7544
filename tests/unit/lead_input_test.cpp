#include "http/inputs/json.hpp"
#include "http/inputs/lead_input.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vcs::http {
namespace {

// 10,000 items: every 7th malformed (a number as phone_number), every 5th an
// invalid number (kept, flagged); from item 9,000 on the invalid numbers
// repeat those of 9,000 items before.
std::string bulk_body() {
  std::string body = "[";
  for (int i = 0; i < 10'000; ++i) {
    if (i > 0)
      body += ',';
    if (i % 7 == 3)
      body += R"({"phone_number":12345})";
    else if (i % 5 == 0)
      body += R"({"phone_number":"+1555555)" + std::to_string(1000 + i % 9000) + "\"}";
    else
      body += R"({"phone_number":"+1415)" + std::to_string(2000000 + i) + R"(","first_name":"N)" +
              std::to_string(i) + R"(","custom_fields":{"i":)" + std::to_string(i) + "}}";
  }
  return body + "]";
}

// Each row as one comparable line: its item's index and every field.
std::vector<std::string> row_lines(const domain::bulk_import& b) {
  std::vector<std::string> out;
  for (std::size_t k = 0; k < b.rows.size(); ++k) {
    const auto& r = b.rows[k];
    out.push_back(std::to_string(b.row_index[k]) + " " + r.phone_number + " " +
                  r.first_name.value_or("-") + " " + r.last_name.value_or("-") + " " +
                  r.email.value_or("-") + " " + r.custom_fields_json + " " +
                  (r.invalid ? "invalid " + r.invalid_reason.value_or("?") : "valid"));
  }
  return out;
}

TEST(read_bulk_leads, slices_on_threads_give_the_single_thread_result_in_order) {
  auto doc = parse_json(bulk_body());
  ASSERT_TRUE(doc);
  auto one = read_bulk_leads(*doc, 1);
  EXPECT_EQ(one.accepted, 10'000);
  EXPECT_EQ(one.invalid, 1'429); // i % 7 == 3 for i < 10,000
  for (unsigned threads : {2u, 3u, 8u}) {
    auto many = read_bulk_leads(*doc, threads);
    EXPECT_EQ(many.accepted, one.accepted);
    EXPECT_EQ(many.invalid, one.invalid);
    EXPECT_EQ(row_lines(many), row_lines(one)) << threads;
  }
  // Items 9,000 to 9,999 that are multiples of 5, not malformed, and whose
  // item 9,000 before was not malformed either.
  EXPECT_EQ(one.duplicates, 142);
  const auto& rows = one.rows;
  EXPECT_EQ(rows.size(), 10'000u - 1'429u - 142u);
  EXPECT_EQ(one.row_index.size(), rows.size());
  // Body order is kept: the first rows are items 0, 1, 2, 4.
  EXPECT_EQ(one.row_index[3], 4);
  EXPECT_EQ(rows[3].first_name, "N4");
  EXPECT_EQ(rows[3].custom_fields_json, R"({"i":4})");
  EXPECT_TRUE(rows[0].invalid); // +15555551000
  EXPECT_TRUE(rows[0].invalid_reason);
  EXPECT_FALSE(rows[1].invalid);
  EXPECT_EQ(rows[0].custom_fields_json, "{}");
}

// Every row names its item, across the threads' slices: the item at its
// index was sent with its phone number, and the indexes rise.
TEST(read_bulk_leads, each_row_names_its_item_in_the_request) {
  auto doc = parse_json(bulk_body());
  ASSERT_TRUE(doc);
  const auto bulk = read_bulk_leads(*doc, 3);
  ASSERT_EQ(bulk.row_index.size(), bulk.rows.size());
  for (std::size_t k = 0; k < bulk.rows.size(); ++k) {
    const auto i = bulk.row_index[k];
    ASSERT_EQ((*doc)[static_cast<rapidjson::SizeType>(i)]["phone_number"].GetString(),
              bulk.rows[k].phone_number)
        << k;
    if (k > 0) {
      ASSERT_LT(bulk.row_index[k - 1], i) << k;
    }
  }
}

// Repeats of an earlier item's phone number are left out wherever the
// threads' slices meet: item 9,999 repeats item 0, and every 1,000th item
// repeats the item before it.
TEST(read_bulk_leads, repeats_are_left_out_in_request_order_on_any_number_of_threads) {
  std::string body = "[";
  for (int i = 0; i < 10'000; ++i) {
    const int number = i == 9'999 ? 0 : (i % 1'000 == 0 && i > 0 ? i - 1 : i);
    body += std::string{i > 0 ? "," : ""} + R"({"phone_number":"+1415)" +
            std::to_string(2000000 + number) + "\"}";
  }
  auto doc = parse_json(body + "]");
  ASSERT_TRUE(doc);
  auto one = read_bulk_leads(*doc, 1);
  EXPECT_EQ(one.duplicates, 10);
  EXPECT_EQ(one.rows.size(), 9'990u);
  ASSERT_EQ(one.rejected.size(), 10u);
  EXPECT_EQ(one.rejected.front().index, 1'000);
  EXPECT_EQ(one.rejected.front().message, "Repeats the phone number of item 999.");
  EXPECT_EQ(one.rejected.back().index, 9'999);
  EXPECT_EQ(one.rejected.back().message, "Repeats the phone number of item 0.");
  EXPECT_EQ(one.rejected.back().reason, domain::rejection_reason::duplicate_in_request);
  for (unsigned threads : {2u, 3u, 8u}) {
    auto many = read_bulk_leads(*doc, threads);
    EXPECT_EQ(row_lines(many), row_lines(one)) << threads;
    EXPECT_EQ(many.rejected.size(), one.rejected.size()) << threads;
  }
  EXPECT_EQ(one.row_index[1'000], 1'001) << "each row names its item";
}

// A rejected item's number is kept as sent, but no longer than 64 bytes,
// cut where a character starts (the stored text stays UTF-8).
TEST(read_bulk_leads, a_rejected_number_is_kept_to_its_first_64_bytes) {
  const std::string long_number(70, '9');
  std::string accented; // "é" is two bytes: byte 64 falls inside the 33rd
  for (int i = 0; i < 40; ++i)
    accented += "\xC3\xA9";
  auto doc = parse_json(R"([{"phone_number":")" + long_number + R"("},{"phone_number":")" +
                        accented + R"("}])");
  ASSERT_TRUE(doc);
  auto r = read_bulk_leads(*doc, 1);
  ASSERT_EQ(r.rejected.size(), 2u);
  EXPECT_EQ(*r.rejected[0].phone_number, long_number.substr(0, 64));
  EXPECT_EQ(*r.rejected[1].phone_number, accented.substr(0, 64));
  EXPECT_TRUE(is_storable_text(*r.rejected[1].phone_number));
  const std::string odd = "1" + accented;
  auto doc2 = parse_json(R"([{"phone_number":")" + odd + R"("}])");
  ASSERT_TRUE(doc2);
  auto cut = *read_bulk_leads(*doc2, 1).rejected[0].phone_number;
  EXPECT_EQ(cut, odd.substr(0, 63)) << "byte 64 would split a character";
  EXPECT_TRUE(is_storable_text(cut));
}

TEST(read_bulk_leads, small_and_all_malformed_bodies) {
  auto doc = parse_json(R"([{"phone_number":1},{"nope":true}])");
  ASSERT_TRUE(doc);
  auto r = read_bulk_leads(*doc, 4);
  EXPECT_EQ(r.accepted, 2);
  EXPECT_EQ(r.invalid, 2);
  EXPECT_TRUE(r.rows.empty());
  EXPECT_TRUE(r.row_index.empty());
  ASSERT_EQ(r.rejected.size(), 2u);
  EXPECT_EQ(r.rejected[0].message, "phone_number: Must be a string.");
  EXPECT_FALSE(r.rejected[0].phone_number);
  EXPECT_EQ(r.rejected[1].index, 1);
}

// Bulk bodies are counted on the raw text as it arrives; strings, nested
// arrays and objects do not count. Every text is also fed one byte at a
// time, as a slow client sends it: the answer must not depend on where the
// pieces break (inside a string, after a backslash).
using verdict = array_item_counter::verdict;

verdict check(std::string_view text, list_body_limits limits) {
  array_item_counter whole{limits};
  const auto at_once = whole.feed(text);
  array_item_counter bytes{limits};
  auto piecewise = verdict::fine;
  for (std::size_t i = 0; i < text.size(); ++i)
    piecewise = bytes.feed(text.substr(i, 1));
  EXPECT_EQ(at_once, piecewise) << text;
  return at_once;
}

bool over(std::string_view text, std::size_t limit) {
  return check(text, {limit, 0, 0}) == verdict::too_many_items;
}

TEST(array_item_counter, counts_top_level_items_only) {
  EXPECT_FALSE(over("[]", 0));
  EXPECT_FALSE(over(" [ ] ", 0));
  EXPECT_TRUE(over("[1]", 0));
  EXPECT_FALSE(over(" [1, 2, 3] ", 3));
  EXPECT_TRUE(over("[1,2,3,4]", 3));
  EXPECT_FALSE(over(R"([{"a":[1,2,3],"b":"x,y,z"},[4,5],"6,7"])", 3));
  EXPECT_TRUE(over(R"([{"a":1},{"b":"\",\""},{"c":2},{"d":3}])", 3));
  EXPECT_FALSE(over(R"(["a\\",["b,c"]])", 2));   // an escaped backslash ends before the quote
  EXPECT_FALSE(over(R"({"a":[1,2,3,4,5]})", 1)); // not an array
  EXPECT_FALSE(over("", 0));
}

// A session refuses a list as soon as the item past its limit arrives,
// whatever follows: the rest of the body is never needed.
TEST(array_item_counter, decides_before_the_rest_arrives) {
  array_item_counter c{{2, 0, 0}};
  EXPECT_EQ(c.feed(R"([{"phone_number":"+1"},)"), verdict::fine);
  EXPECT_EQ(c.feed(R"({"phone_number":"+2"})"), verdict::fine);
  EXPECT_EQ(c.feed(R"(,{"phone_num)"), verdict::too_many_items);
  EXPECT_EQ(c.feed("anything at all"), verdict::too_many_items);
  EXPECT_EQ(c.refusal(verdict::too_many_items).message, "Request body may hold at most 2 items");
  array_item_counter closed{{1, 0, 0}};
  EXPECT_EQ(closed.feed("[1]"), verdict::fine);
  EXPECT_EQ(closed.feed(",2,3"), verdict::fine); // after the array closed nothing counts
}

// One item's bytes as sent are bounded, whitespace and strings included;
// the count starts again with each item.
TEST(array_item_counter, bounds_each_items_bytes) {
  const list_body_limits limits{10, 16, 0};
  EXPECT_EQ(check(R"([{"a":"0123456"}, {"b":"0123456"}])", limits), verdict::fine);
  EXPECT_EQ(check(R"([{"a":"0123456"}, {"b":"01234567"}])", limits), verdict::item_too_large);
  EXPECT_EQ(check(R"([1, [0,0,0,0,0,0,0,0,0,0]])", limits), verdict::item_too_large);
  array_item_counter c{limits};
  EXPECT_EQ(c.feed(R"([1, {"b":"012345678")"), verdict::item_too_large);
  EXPECT_EQ(c.refusal(verdict::item_too_large).message, "Item 1 is larger than 16 bytes");
}

// The values of the whole body are bounded, about one each: a body of
// small items cannot make the parser build a huge document.
TEST(array_item_counter, bounds_the_values_of_the_body) {
  const list_body_limits limits{100, 0, 12};
  // 4 items, 4 objects, 4 names: 12.
  EXPECT_EQ(check(R"([{"a":1},{"b":2},{"c":3},{"d":4}])", limits), verdict::fine);
  EXPECT_EQ(check(R"([{"a":1},{"b":2},{"c":3},{"d":4},5])", limits), verdict::too_many_values);
  EXPECT_EQ(check(R"([[0,0,0,0,0,0,0,0,0,0,0,0]])", limits), verdict::too_many_values);
  // Commas and colons inside strings are not values.
  EXPECT_EQ(check(R"(["a,b,c,d,e,f,g,h,i,j,k,l,m:n"])", limits), verdict::fine);
  array_item_counter c{limits};
  EXPECT_EQ(c.feed("[[0,0,0,0,0,0,0,0,0,0,0,0"), verdict::too_many_values);
  EXPECT_EQ(c.refusal(verdict::too_many_values).message,
            "Request body may hold at most 12 JSON values");
}

} // namespace
} // namespace vcs::http
