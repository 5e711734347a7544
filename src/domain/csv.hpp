#pragma once

// RFC 4180 records: fields split by commas and records by CRLF, LF or CR;
// a field in double quotes may hold commas, line breaks and "" for a
// quote. Dialers and spreadsheets export leads this way.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::domain {

enum class csv_step { record, end, malformed };

class csv_reader {
public:
  // A leading UTF-8 byte-order mark (spreadsheet exports) is skipped.
  explicit csv_reader(std::string_view text);

  // The next record's fields; empty lines are skipped. On `malformed`,
  // problem() says what and where; reading stops there.
  csv_step next(std::vector<std::string>& fields);

  // The line (from 1) on which the last record began.
  std::size_t line() const noexcept { return record_line_; }
  const std::string& problem() const noexcept { return problem_; }

private:
  csv_step fail(std::string what);

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
  std::size_t record_line_ = 0;
  std::string problem_;
};

} // namespace vcs::domain
