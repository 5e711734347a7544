#include "http/inputs/lead_csv.hpp"

#include "domain/csv.hpp"
#include "domain/trim.hpp"

#include <boost/algorithm/string/predicate.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace vcs::http {

namespace {

constexpr std::string_view custom_prefix = "custom_fields.";

// Where a column's cells go: a lead field, or one custom field.
struct column {
  std::string name;
  bool custom = false;
};

domain::error invalid_csv(std::string problem) {
  return domain::error{domain::errc::bad_request, "Invalid CSV"}.with_errors(
      std::vector<std::string>{std::move(problem)});
}

domain::result<std::vector<column>> read_header(const std::vector<std::string>& cells) {
  static const std::set<std::string, std::less<>> fields{"phone_number", "first_name", "last_name",
                                                         "email"};
  std::vector<column> out;
  std::set<std::string, std::less<>> seen;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const auto& name = cells[i];
    const auto where = "header, column " + std::to_string(i + 1) + ": ";
    if (!seen.insert(name).second)
      return invalid_csv(where + "'" + name + "' appears twice.");
    if (fields.contains(name)) {
      out.push_back({name, false});
    } else if (name.starts_with(custom_prefix) && name.size() > custom_prefix.size()) {
      out.push_back({name.substr(custom_prefix.size()), true});
    } else {
      return invalid_csv(where + "'" + name +
                         "' is not a lead field; expected phone_number, first_name, last_name, "
                         "email or custom_fields.<name>.");
    }
  }
  if (!seen.contains("phone_number"))
    return invalid_csv("header: the phone_number column is required.");
  return out;
}

} // namespace

bool is_csv(std::string_view content_type) noexcept {
  return boost::algorithm::iequals(
      domain::trim_spaces(content_type.substr(0, content_type.find(';'))),
      std::string_view{"text/csv"});
}

domain::result<rapidjson::Document> read_lead_csv(std::string_view body, std::size_t max_items) {
  // Cells become JSON strings stored in jsonb: the text must be storable.
  if (!is_storable_text(body))
    return invalid_csv("The body must be UTF-8 text without NUL characters.");
  domain::csv_reader reader{body};
  std::vector<std::string> cells;
  auto step = reader.next(cells);
  if (step == domain::csv_step::malformed)
    return invalid_csv(reader.problem());
  if (step == domain::csv_step::end)
    return domain::error{domain::errc::bad_request, "Request body must be a non-empty list"};
  auto header = read_header(cells);
  if (!header)
    return std::move(header).err();
  rapidjson::Document doc;
  doc.SetArray();
  auto& alloc = doc.GetAllocator();
  while ((step = reader.next(cells)) == domain::csv_step::record) {
    if (cells.size() != header->size())
      return invalid_csv("line " + std::to_string(reader.line()) + ": " +
                         std::to_string(cells.size()) + " cells where the header has " +
                         std::to_string(header->size()) + ".");
    if (doc.Size() == max_items)
      return domain::too_many_items(max_items);
    rapidjson::Value lead{rapidjson::kObjectType};
    rapidjson::Value custom{rapidjson::kObjectType};
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (cells[i].empty())
        continue;
      const auto& col = (*header)[i];
      rapidjson::Value name{col.name.c_str(), static_cast<rapidjson::SizeType>(col.name.size()),
                            alloc};
      rapidjson::Value value{cells[i].c_str(), static_cast<rapidjson::SizeType>(cells[i].size()),
                             alloc};
      (col.custom ? custom : lead).AddMember(name, value, alloc);
    }
    if (custom.MemberCount() > 0)
      lead.AddMember("custom_fields", custom, alloc);
    doc.PushBack(lead, alloc);
  }
  if (step == domain::csv_step::malformed)
    return invalid_csv(reader.problem());
  if (doc.Empty())
    return domain::error{domain::errc::bad_request, "Request body must be a non-empty list"};
  return doc;
}

} // namespace vcs::http
