#include "domain/csv.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vcs::domain {
namespace {

using records = std::vector<std::vector<std::string>>;

// Every record of `text`, and the line each began on; stops at the first
// malformed one.
records read_all(std::string_view text, std::vector<std::size_t>* lines = nullptr,
                 std::string* problem = nullptr) {
  csv_reader reader{text};
  records out;
  std::vector<std::string> fields;
  csv_step step;
  while ((step = reader.next(fields)) == csv_step::record) {
    out.push_back(fields);
    if (lines)
      lines->push_back(reader.line());
  }
  if (problem)
    *problem = step == csv_step::malformed ? reader.problem() : "";
  return out;
}

TEST(csv_reader, splits_fields_and_records_at_any_line_end) {
  EXPECT_EQ(read_all("a,b\r\nc,d\ne,f\rg,h"),
            (records{{"a", "b"}, {"c", "d"}, {"e", "f"}, {"g", "h"}}));
  EXPECT_EQ(read_all("a,,\n,\n"), (records{{"a", "", ""}, {"", ""}})) << "empty fields count";
  EXPECT_EQ(read_all("\xEF\xBB\xBF"
                     "a\n"),
            (records{{"a"}}))
      << "a byte-order mark is not part of the first field";
  EXPECT_TRUE(read_all("").empty());
}

TEST(csv_reader, quoted_fields_hold_commas_quotes_and_line_breaks) {
  std::vector<std::size_t> lines;
  auto r = read_all("\"a,b\",\"say \"\"hi\"\"\"\r\n\"two\r\nlines\",\"\"\nlast,x\n", &lines);
  EXPECT_EQ(r, (records{{"a,b", "say \"hi\""}, {"two\r\nlines", ""}, {"last", "x"}}));
  EXPECT_EQ(lines, (std::vector<std::size_t>{1, 2, 4})) << "a quoted line break is a line";
}

TEST(csv_reader, empty_lines_are_skipped_and_counted) {
  std::vector<std::size_t> lines;
  auto r = read_all("a\n\n\r\nb\n\n", &lines);
  EXPECT_EQ(r, (records{{"a"}, {"b"}}));
  EXPECT_EQ(lines, (std::vector<std::size_t>{1, 4}));
}

TEST(csv_reader, malformed_quotes_stop_the_reading_with_their_line) {
  std::string problem;
  auto r = read_all("a\nb\n\"open\n", nullptr, &problem);
  EXPECT_EQ(r, (records{{"a"}, {"b"}}));
  EXPECT_EQ(problem, "line 4: a quoted field is not closed");
  read_all("a\n\"x\"y\n", nullptr, &problem);
  EXPECT_EQ(problem, "line 2: a closing quote must end its field");
  read_all("a\nx\"y\n", nullptr, &problem);
  EXPECT_EQ(problem, "line 2: a field with a quote must be quoted whole");
}

} // namespace
} // namespace vcs::domain
