#include "http/render/csv_row.hpp"

namespace vcs::http {

csv_row& csv_row::value(std::string_view v) {
  field(v, false);
  return *this;
}

csv_row& csv_row::text(std::string_view v) {
  field(v, true);
  return *this;
}

void csv_row::field(std::string_view v, bool guard) {
  if (!first_)
    out_ += ',';
  first_ = false;
  const bool formula =
      guard && !v.empty() && std::string_view{"=+-@\t\r"}.find(v.front()) != std::string_view::npos;
  const bool quoted = v.find_first_of(",\"\r\n") != std::string_view::npos;
  if (quoted)
    out_ += '"';
  if (formula)
    out_ += '\'';
  for (char c : v) {
    if (c == '"')
      out_ += '"';
    out_ += c;
  }
  if (quoted)
    out_ += '"';
}

} // namespace vcs::http
