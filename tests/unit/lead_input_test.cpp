#include "http/json.hpp"
#include "http/lead_input.hpp"

#include <gtest/gtest.h>

#include <string>

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
    EXPECT_EQ(many.rows.text, one.rows.text) << threads;
    EXPECT_EQ(many.rows.ends, one.rows.ends) << threads;
  }
  auto rows = parse_json(one.rows.text);
  ASSERT_TRUE(rows && rows->IsArray());
  // Items 9,000 to 9,999 that are multiples of 5, not malformed, and whose
  // item 9,000 before was not malformed either.
  EXPECT_EQ(one.duplicates, 142);
  EXPECT_EQ(rows->Size(), 10'000u - 1'429u - 142u);
  // Body order is kept: the first rows are items 0, 1, 2, 4.
  EXPECT_EQ(std::string{(*rows)[3]["first_name"].GetString()}, "N4");
  EXPECT_TRUE((*rows)[0]["invalid"].GetBool()); // +15555551000
  EXPECT_FALSE((*rows)[1]["invalid"].GetBool());
}

// The rows can be cut at any row, the seams of the threads' slices
// included: the two halves are the rows before and after the cut.
TEST(read_bulk_leads, rows_cut_anywhere_into_two_arrays) {
  auto doc = parse_json(bulk_body());
  ASSERT_TRUE(doc);
  const auto rows = read_bulk_leads(*doc, 3).rows;
  auto all = parse_json(rows.text);
  ASSERT_TRUE(all && all->IsArray());
  const auto n = rows.size();
  ASSERT_EQ(n, all->Size());
  // Every cut: a whole array before, the next row's start after.
  for (std::size_t cut = 1; cut < n; ++cut) {
    ASSERT_EQ(rows.text.substr(rows.ends[cut - 1], 2), ",{") << cut;
    ASSERT_EQ(rows.text[rows.ends[cut - 1] - 1], '}') << cut;
  }
  // Parsed: both ends, and around the slices' seams (a third of the rows
  // each, as the invalid items are spread evenly).
  std::vector<std::size_t> cuts{0, 1, 2, n - 1, n};
  for (std::size_t seam : {n / 3, 2 * n / 3})
    for (std::size_t near = seam - 2; near <= seam + 2; ++near)
      cuts.push_back(near);
  auto name = [](const rapidjson::Value& row) {
    return std::string{row["phone_number"].GetString()};
  };
  for (auto cut : cuts) {
    const auto head_text = rows.slice(0, cut);
    const auto tail_text = rows.slice(cut, n);
    auto head = parse_json(head_text);
    auto tail = parse_json(tail_text);
    ASSERT_TRUE(head && head->IsArray() && tail && tail->IsArray()) << cut;
    ASSERT_EQ(head->Size(), cut);
    ASSERT_EQ(tail->Size(), n - cut);
    const auto at = static_cast<rapidjson::SizeType>(cut);
    if (cut > 0) {
      EXPECT_EQ(name((*head)[at - 1]), name((*all)[at - 1]));
    }
    if (cut < n) {
      EXPECT_EQ(name(*tail->Begin()), name((*all)[at]));
    }
  }
  EXPECT_EQ(rows.slice(0, n), rows.text);
  EXPECT_EQ(rows.slice(n, n + 5), "[]");
  // A slice between two cuts: the rows between them.
  const auto middle = rows.slice(n / 3 - 1, n / 3 + 2);
  auto three = parse_json(middle);
  ASSERT_TRUE(three && three->IsArray());
  ASSERT_EQ(three->Size(), 3u);
  EXPECT_EQ(name(*three->Begin()), name((*all)[static_cast<rapidjson::SizeType>(n / 3 - 1)]));
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
    EXPECT_EQ(many.rows.text, one.rows.text) << threads;
    EXPECT_EQ(many.rows.ends, one.rows.ends) << threads;
    EXPECT_EQ(many.rejected.size(), one.rejected.size()) << threads;
  }
  auto rows = parse_json(one.rows.text);
  ASSERT_TRUE(rows && rows->IsArray());
  EXPECT_EQ((*rows)[1'000]["i"].GetInt(), 1'001) << "each row names its item";
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
  EXPECT_EQ(r.rows.text, "[]");
  ASSERT_EQ(r.rejected.size(), 2u);
  EXPECT_EQ(r.rejected[0].message, "phone_number: Must be a string.");
  EXPECT_FALSE(r.rejected[0].phone_number);
  EXPECT_EQ(r.rejected[1].index, 1);
}

// Bulk bodies are counted on the raw text as it arrives; strings, nested
// arrays and objects do not count. Every text is also fed one byte at a
// time, as a slow client sends it: the answer must not depend on where the
// pieces break (inside a string, after a backslash).
bool over(std::string_view text, std::size_t limit) {
  array_item_counter whole{limit};
  const bool at_once = whole.feed(text);
  array_item_counter bytes{limit};
  bool piecewise = false;
  for (std::size_t i = 0; i < text.size(); ++i)
    piecewise = bytes.feed(text.substr(i, 1));
  EXPECT_EQ(at_once, piecewise) << text;
  return at_once;
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
  array_item_counter c{2};
  EXPECT_FALSE(c.feed(R"([{"phone_number":"+1"},)"));
  EXPECT_FALSE(c.feed(R"({"phone_number":"+2"})"));
  EXPECT_TRUE(c.feed(R"(,{"phone_num)"));
  EXPECT_TRUE(c.feed("anything at all"));
  array_item_counter closed{1};
  EXPECT_FALSE(closed.feed("[1]"));
  EXPECT_FALSE(closed.feed(",2,3")); // after the array closed nothing counts
}

} // namespace
} // namespace vcs::http
