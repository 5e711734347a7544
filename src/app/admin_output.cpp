#include "app/admin_output.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>

namespace vcs::app {

namespace {

// A value as one cell or line: strings as they are, null as `-`, arrays
// and objects as compact JSON.
std::string text_of(const rapidjson::Value& v) {
  if (v.IsNull())
    return "-";
  if (v.IsString())
    return {v.GetString(), v.GetStringLength()};
  if (v.IsBool())
    return v.GetBool() ? "true" : "false";
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer{buffer};
  v.Accept(writer);
  return {buffer.GetString(), buffer.GetSize()};
}

// The member at `path` (`outer.inner`), or nullptr.
const rapidjson::Value* member_at(const rapidjson::Value& v, const std::string& path) {
  const rapidjson::Value* at = &v;
  std::size_t from = 0;
  while (at) {
    auto dot = path.find('.', from);
    auto name = path.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
    if (!at->IsObject())
      return nullptr;
    auto m = at->FindMember(name.c_str());
    at = m == at->MemberEnd() ? nullptr : &m->value;
    if (dot == std::string::npos)
      break;
    from = dot + 1;
  }
  return at;
}

void print_lines(const rapidjson::Value& v, const std::string& prefix, std::ostream& out) {
  for (const auto& m : v.GetObject()) {
    const std::string name = prefix + m.name.GetString();
    if (m.value.IsObject() && m.value.MemberCount() > 0)
      print_lines(m.value, name + ".", out);
    else
      out << name << ": " << text_of(m.value) << "\n";
  }
}

void print_table(const rapidjson::Value& items, const std::vector<std::string>& columns,
                 std::ostream& out) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header;
  for (const auto& c : columns)
    header.push_back(c.substr(c.rfind('.') + 1));
  rows.push_back(header);
  for (const auto& item : items.GetArray()) {
    std::vector<std::string> row;
    for (const auto& c : columns) {
      const auto* v = member_at(item, c);
      row.push_back(v ? text_of(*v) : "-");
    }
    rows.push_back(std::move(row));
  }
  std::vector<std::size_t> width(columns.size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i)
      width[i] = std::max(width[i], row[i].size());
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size())
        line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    out << line << "\n";
  }
}

} // namespace

void print_answer(const std::string& body, const std::optional<table_view>& view,
                  std::ostream& out) {
  rapidjson::Document doc;
  if (doc.Parse(body.c_str(), body.size()).HasParseError() || !doc.IsObject()) {
    out << body << (body.empty() || body.back() == '\n' ? "" : "\n");
    return;
  }
  if (view) {
    if (const auto* items = member_at(doc, view->list_key); items && items->IsArray()) {
      print_table(*items, view->columns, out);
      for (const auto& m : doc.GetObject())
        if (view->list_key != m.name.GetString() && !m.value.IsNull())
          out << m.name.GetString() << ": " << text_of(m.value) << "\n";
      return;
    }
  }
  print_lines(doc, "", out);
}

void print_refusal(unsigned status, const std::string& body, std::ostream& err) {
  rapidjson::Document doc;
  const auto* message =
      doc.Parse(body.c_str(), body.size()).HasParseError() ? nullptr : member_at(doc, "message");
  err << "error: " << status << ": " << (message && message->IsString() ? text_of(*message) : body)
      << "\n";
  const auto* errors = message ? member_at(doc, "errors") : nullptr;
  if (errors && errors->IsArray())
    for (const auto& m : errors->GetArray())
      err << "  " << text_of(m) << "\n";
  if (const auto* valid = message ? member_at(doc, "valid_values") : nullptr)
    err << "  valid values: " << text_of(*valid) << "\n";
  if (!errors || !errors->IsObject())
    return;
  for (const auto& field : errors->GetObject()) {
    if (!field.value.IsArray()) {
      err << "  " << field.name.GetString() << ": " << text_of(field.value) << "\n";
      continue;
    }
    for (const auto& m : field.value.GetArray())
      err << "  " << field.name.GetString() << ": " << text_of(m) << "\n";
  }
}

} // namespace vcs::app
