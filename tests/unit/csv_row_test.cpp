// CSV rows (http/render/csv_row.hpp): RFC 4180 quoting, and free text kept
// from running as a spreadsheet formula.

#include "http/render/csv_row.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace vcs::http {
namespace {

TEST(csv_row, fields_are_quoted_only_when_they_must_be) {
  std::string out;
  csv_row{out}.value("plain").value("a,b").value("say \"hi\"").value("two\nlines").value(42).end();
  EXPECT_EQ(out, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",42\r\n");
}

TEST(csv_row, an_absent_value_is_an_empty_field) {
  std::string out;
  csv_row{out}.value(std::optional<std::string>{}).text(std::optional<std::string>{}).end();
  EXPECT_EQ(out, ",\r\n");
}

TEST(csv_row, free_text_that_a_spreadsheet_would_run_gets_an_apostrophe) {
  for (const char* risky : {"=1+1", "+1-1", "-2", "@SUM(A1)", "\tx", "\rx"}) {
    std::string out;
    csv_row{out}.text(risky).end();
    EXPECT_EQ(out.substr(0, 1) == "\"" ? out.substr(1, 1) : out.substr(0, 1), "'") << risky;
  }
  std::string out;
  csv_row{out}.text("=HYPERLINK(\"x\")").text("fine = text").end();
  EXPECT_EQ(out, "\"'=HYPERLINK(\"\"x\"\")\",fine = text\r\n");
}

TEST(csv_row, the_services_own_values_are_kept_as_they_are) {
  std::string out;
  csv_row{out}.value("+14155552671").value("-1").end();
  EXPECT_EQ(out, "+14155552671,-1\r\n");
}

} // namespace
} // namespace vcs::http
