#pragma once

// One row of text/csv (RFC 4180): fields separated by commas, the row ended
// by CRLF, a field quoted when it holds a comma, a quote, CR or LF (its
// quotes doubled). A field of free text, what a provider or a tenant wrote,
// that begins with =, +, -, @, a tab or CR gets an apostrophe first, so a
// spreadsheet shows it instead of running it as a formula (OWASP, "CSV
// Injection").

#include "domain/timestamp.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vcs::http {

class csv_row {
public:
  // Appends to `out`.
  explicit csv_row(std::string& out) : out_(out) {}

  // A value the service made (an id, a status, a time, a number).
  csv_row& value(std::string_view v);
  csv_row& value(const std::string& v) { return value(std::string_view{v}); }
  csv_row& value(const char* v) { return value(std::string_view{v}); }
  csv_row& value(const std::optional<std::string>& v) { return value(v ? *v : std::string_view{}); }
  csv_row& value(int64_t v) { return value(std::string_view{std::to_string(v)}); }
  // An instant in the style `format` writes (domain::format_utc,
  // format_offset: the list's own); empty when absent.
  using time_style = std::string (*)(domain::timestamp);
  csv_row& time(domain::timestamp t, time_style format) { return value(format(t)); }
  csv_row& time(const std::optional<domain::timestamp>& t, time_style format) {
    return t ? time(*t, format) : value(std::string_view{});
  }
  // Free text, guarded as above.
  csv_row& text(std::string_view v);
  csv_row& text(const std::string& v) { return text(std::string_view{v}); }
  csv_row& text(const char* v) { return text(std::string_view{v}); }
  csv_row& text(const std::optional<std::string>& v) { return text(v ? *v : std::string_view{}); }
  // Ends the row.
  void end() { out_ += "\r\n"; }

private:
  void field(std::string_view v, bool guard);

  std::string& out_;
  bool first_ = true;
};

} // namespace vcs::http
