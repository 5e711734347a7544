#include "domain/csv.hpp"

namespace vcs::domain {

csv_reader::csv_reader(std::string_view text) : text_(text) {
  if (text_.starts_with("\xEF\xBB\xBF"))
    pos_ = 3;
}

csv_step csv_reader::fail(std::string what) {
  problem_ = "line " + std::to_string(line_) + ": " + std::move(what);
  pos_ = text_.size();
  return csv_step::malformed;
}

csv_step csv_reader::next(std::vector<std::string>& fields) {
  fields.clear();
  if (!problem_.empty())
    return csv_step::malformed;
  const auto size = text_.size();
  while (pos_ < size && (text_[pos_] == '\n' || text_[pos_] == '\r')) {
    // CRLF is one line end; a lone CR or LF is one too.
    if (text_[pos_] == '\n' || pos_ + 1 == size || text_[pos_ + 1] != '\n')
      ++line_;
    ++pos_;
  }
  if (pos_ >= size)
    return csv_step::end;
  record_line_ = line_;
  for (;;) {
    std::string& field = fields.emplace_back();
    if (pos_ < size && text_[pos_] == '"') {
      ++pos_;
      for (;;) {
        if (pos_ >= size)
          return fail("a quoted field is not closed");
        const char c = text_[pos_++];
        if (c == '"') {
          if (pos_ < size && text_[pos_] == '"') {
            field += '"';
            ++pos_;
            continue;
          }
          break;
        }
        if (c == '\n')
          ++line_;
        field += c;
      }
      if (pos_ < size && text_[pos_] != ',' && text_[pos_] != '\n' && text_[pos_] != '\r')
        return fail("a closing quote must end its field");
    } else {
      auto end = text_.find_first_of(",\r\n", pos_);
      if (end == std::string_view::npos)
        end = size;
      field.assign(text_.substr(pos_, end - pos_));
      pos_ = end;
      if (field.find('"') != std::string::npos)
        return fail("a field with a quote must be quoted whole");
    }
    if (pos_ >= size)
      return csv_step::record;
    const char c = text_[pos_++];
    if (c == ',')
      continue;
    if (c == '\r' && pos_ < size && text_[pos_] == '\n')
      ++pos_;
    ++line_;
    return csv_step::record;
  }
}

} // namespace vcs::domain
