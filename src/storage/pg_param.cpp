#include "storage/pg_param.hpp"

namespace vcs::storage {

namespace {

// Quoted, so that commas, braces, spaces and the word NULL stay text.
void append_quoted(std::string& out, std::string_view item) {
  out += '"';
  for (char ch : item) {
    if (ch == '"' || ch == '\\')
      out += '\\';
    out += ch;
  }
  out += '"';
}

} // namespace

pg_param::pg_param(domain::timestamp v) : owned_(domain::to_pg_timestamp(v)) {}

pg_param::pg_param(const std::vector<int64_t>& v) {
  owned_ = "{";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0)
      owned_ += ',';
    owned_ += std::to_string(v[i]);
  }
  owned_ += '}';
}

pg_param::pg_param(const std::vector<std::optional<int64_t>>& v) {
  owned_ = "{";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0)
      owned_ += ',';
    owned_ += v[i] ? std::to_string(*v[i]) : "NULL";
  }
  owned_ += '}';
}

pg_param::pg_param(const std::vector<std::string>& v) {
  owned_ = "{";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0)
      owned_ += ',';
    append_quoted(owned_, v[i]);
  }
  owned_ += '}';
}

pg_param::pg_param(const std::vector<std::optional<std::string>>& v) {
  owned_ = "{";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0)
      owned_ += ',';
    if (v[i])
      append_quoted(owned_, *v[i]);
    else
      owned_ += "NULL";
  }
  owned_ += '}';
}

} // namespace vcs::storage
