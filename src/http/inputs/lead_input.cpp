#include "http/inputs/lead_input.hpp"

#include "domain/global_id.hpp"
#include "domain/lead.hpp"

#include <algorithm>
#include <future>
#include <iterator>
#include <string_view>
#include <unordered_map>

namespace vcs::http {

namespace {

// Reads an optional string member; a wrong type or an overlong value is a
// problem.
std::optional<std::string> text(const rapidjson::Value& item, const char* name,
                                std::size_t max_length, std::vector<std::string>& problems) {
  auto it = item.FindMember(name);
  if (it == item.MemberEnd() || it->value.IsNull())
    return std::nullopt;
  if (!it->value.IsString()) {
    problems.push_back(std::string{name} + ": Must be a string.");
    return std::nullopt;
  }
  std::string v{it->value.GetString(), it->value.GetStringLength()};
  if (v.size() > max_length) {
    problems.push_back(std::string{name} + ": Ensure this field has no more than " +
                       std::to_string(max_length) + " characters.");
    return std::nullopt;
  }
  return v;
}

std::optional<bool> flag(const rapidjson::Value& item, const char* name,
                         std::vector<std::string>& problems) {
  auto it = item.FindMember(name);
  if (it == item.MemberEnd() || it->value.IsNull())
    return std::nullopt;
  if (!it->value.IsBool()) {
    problems.push_back(std::string{name} + ": Must be a boolean.");
    return std::nullopt;
  }
  return it->value.GetBool();
}

// custom_fields as compact JSON object text.
std::optional<std::string> custom_fields(const rapidjson::Value& item,
                                         std::vector<std::string>& problems) {
  auto it = item.FindMember("custom_fields");
  if (it == item.MemberEnd() || it->value.IsNull())
    return std::nullopt;
  if (!it->value.IsObject()) {
    problems.push_back("custom_fields: Must be an object.");
    return std::nullopt;
  }
  auto text = json_text(it->value);
  if (text.size() > domain::custom_fields_max_bytes) {
    problems.push_back("custom_fields: Must be at most " +
                       std::to_string(domain::custom_fields_max_bytes) + " bytes of JSON.");
    return std::nullopt;
  }
  return text;
}

std::optional<std::string> email(const rapidjson::Value& item, std::vector<std::string>& problems) {
  auto v = text(item, "email", domain::lead_email_max_length, problems);
  if (v && !v->empty() && !domain::is_email(*v)) {
    problems.push_back("email: Enter a valid email address.");
    return std::nullopt;
  }
  return v;
}

// The identifying phone number of update and removal items: required for
// updates, as stored (E.164).
std::optional<std::string> phone_key(const rapidjson::Value& item, bool required,
                                     std::vector<std::string>& problems) {
  auto before = problems.size();
  auto v = text(item, "phone_number", 32, problems);
  // Absent or null (text() reported nothing): a result-less item must name
  // a problem, the bulk results show the first.
  if (!v && required && problems.size() == before)
    problems.push_back("phone_number: This field is required.");
  else if (v && v->empty())
    problems.push_back("phone_number: This field may not be blank.");
  return v && !v->empty() ? v : std::nullopt;
}

} // namespace

std::optional<domain::lead_input> read_lead_input(const rapidjson::Value& item,
                                                  std::vector<std::string>& problems) {
  if (!item.IsObject()) {
    problems.push_back("Each lead must be a JSON object.");
    return std::nullopt;
  }
  auto before = problems.size();
  domain::lead_input lead;
  auto phone = text(item, "phone_number", 32, problems);
  if (!phone) {
    if (problems.size() == before)
      problems.push_back("phone_number: This field is required.");
  } else {
    auto check = domain::check_phone(*phone);
    if (!check.well_formed)
      problems.push_back("phone_number: Enter a valid phone number in E.164 format, e.g. "
                         "+14155552671.");
    lead.phone_number = *phone;
    lead.invalid = check.well_formed && !check.valid;
    if (lead.invalid)
      lead.invalid_reason = check.invalid_reason;
  }
  lead.first_name = text(item, "first_name", domain::lead_name_max_length, problems);
  lead.last_name = text(item, "last_name", domain::lead_name_max_length, problems);
  lead.email = email(item, problems);
  if (auto cf = custom_fields(item, problems))
    lead.custom_fields_json = std::move(*cf);
  if (problems.size() != before)
    return std::nullopt;
  return lead;
}

namespace {

// One slice's outcome: its rows and each row's item index.
struct slice_rows {
  std::vector<domain::lead_input> leads;
  std::vector<int32_t> index;
  std::vector<domain::import_rejection> rejected;
  std::vector<std::size_t> repeats; // rows that repeat an earlier phone number
};

// The phone number an item was sent with, when it is text, cut to its
// first 64 bytes (at a character's start): a rejected item's number is
// stored and listed, and one request may send megabytes of it.
std::optional<std::string> sent_phone(const rapidjson::Value& item) {
  constexpr std::size_t max_bytes = 64;
  if (!item.IsObject())
    return std::nullopt;
  auto it = item.FindMember("phone_number");
  if (it == item.MemberEnd() || !it->value.IsString())
    return std::nullopt;
  std::string_view text{it->value.GetString(), it->value.GetStringLength()};
  if (text.size() > max_bytes) {
    std::size_t end = max_bytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
      --end;
    text = text.substr(0, end);
  }
  return std::string{text};
}

// Validates items [begin, end) into rows; a malformed item is rejected
// with its first problem.
void validate_slice(const rapidjson::Value& items, rapidjson::SizeType begin,
                    rapidjson::SizeType end, slice_rows& out) {
  std::vector<std::string> problems;
  out.leads.reserve(end - begin);
  for (auto i = begin; i < end; ++i) {
    problems.clear();
    const auto index = static_cast<int32_t>(i);
    if (auto lead = read_lead_input(items[i], problems)) {
      out.leads.push_back(std::move(*lead));
      out.index.push_back(index);
    } else {
      out.rejected.push_back(
          {index, sent_phone(items[i]), domain::rejection_reason::invalid, problems.front()});
    }
  }
}

// Marks each row whose phone number an earlier item already has, in request
// order: the earlier one is imported, as one insert would keep it.
int32_t mark_repeats(std::vector<slice_rows>& slices, std::size_t rows) {
  std::unordered_map<std::string_view, int32_t> first;
  first.reserve(rows);
  int32_t repeats = 0;
  for (auto& s : slices)
    for (std::size_t k = 0; k < s.leads.size(); ++k) {
      const auto index = s.index[k];
      // A row's number is the text sent (read_lead_input keeps it as is).
      const std::string_view phone = s.leads[k].phone_number;
      auto [it, fresh] = first.try_emplace(phone, index);
      if (fresh)
        continue;
      s.repeats.push_back(k);
      s.rejected.push_back(
          {index, std::string{phone}, domain::rejection_reason::duplicate_in_request,
           "Repeats the phone number of item " + std::to_string(it->second) + "."});
      ++repeats;
    }
  return repeats;
}

// Moves rows [from, to) of a slice to the end of `out`'s rows.
void append_rows(domain::bulk_import& out, slice_rows& s, std::size_t from, std::size_t to) {
  out.rows.insert(out.rows.end(), std::make_move_iterator(s.leads.begin() + from),
                  std::make_move_iterator(s.leads.begin() + to));
  out.row_index.insert(out.row_index.end(), s.index.begin() + from, s.index.begin() + to);
}

// Below this many items one thread is quicker than starting others.
constexpr rapidjson::SizeType parallel_threshold = 4096;

} // namespace

domain::bulk_import read_bulk_leads(const rapidjson::Value& items, unsigned threads) {
  domain::bulk_import out;
  auto n = items.Size();
  out.accepted = static_cast<int32_t>(n);
  auto count = n < parallel_threshold ? 1u : std::clamp(threads, 1u, 8u);
  std::vector<slice_rows> slices(count);
  std::vector<std::future<void>> helpers;
  auto bound = [&](unsigned s) {
    return static_cast<rapidjson::SizeType>(uint64_t{n} * s / count);
  };
  for (unsigned s = 1; s < count; ++s)
    helpers.push_back(std::async(std::launch::async, validate_slice, std::cref(items), bound(s),
                                 bound(s + 1), std::ref(slices[s])));
  validate_slice(items, 0, bound(1), slices[0]);
  for (auto& h : helpers)
    h.get();
  std::size_t valid = 0;
  for (const auto& s : slices) {
    valid += s.leads.size();
    out.invalid += static_cast<int32_t>(s.rejected.size());
  }
  out.duplicates = mark_repeats(slices, valid);
  // Splice the slices' rows together, leaving out the repeats.
  out.rows.reserve(valid - static_cast<std::size_t>(out.duplicates));
  out.row_index.reserve(out.rows.capacity());
  for (auto& s : slices) {
    std::size_t from = 0;
    for (auto k : s.repeats) {
      append_rows(out, s, from, k);
      from = k + 1;
    }
    append_rows(out, s, from, s.leads.size());
    out.rejected.insert(out.rejected.end(), std::make_move_iterator(s.rejected.begin()),
                        std::make_move_iterator(s.rejected.end()));
  }
  std::sort(out.rejected.begin(), out.rejected.end(),
            [](const auto& a, const auto& b) { return a.index < b.index; });
  return out;
}

std::optional<domain::lead_update> read_lead_update(const rapidjson::Value& item,
                                                    std::vector<std::string>& problems) {
  if (!item.IsObject()) {
    problems.push_back("Each item must be a JSON object.");
    return std::nullopt;
  }
  auto before = problems.size();
  domain::lead_update u;
  auto phone = phone_key(item, true, problems);
  u.first_name = text(item, "first_name", domain::lead_name_max_length, problems);
  u.last_name = text(item, "last_name", domain::lead_name_max_length, problems);
  u.email = email(item, problems);
  u.do_not_call = flag(item, "do_not_call", problems);
  u.custom_fields_json = custom_fields(item, problems);
  u.mark_as_unanswered = flag(item, "mark_as_unanswered", problems).value_or(false);
  if (problems.size() != before || !phone)
    return std::nullopt;
  u.phone_number = std::move(*phone);
  return u;
}

std::optional<domain::lead_removal> read_lead_removal(const rapidjson::Value& item,
                                                      std::vector<std::string>& problems) {
  if (!item.IsObject()) {
    problems.push_back("Each item must be a JSON object.");
    return std::nullopt;
  }
  auto before = problems.size();
  domain::lead_removal r;
  r.phone_number = phone_key(item, false, problems);
  if (auto id = text(item, "campaign_lead_id", 128, problems)) {
    r.lead_id = domain::parse_id(domain::entity::lead, *id);
    r.lead_id_malformed = !r.lead_id;
  }
  if (problems.size() != before)
    return std::nullopt;
  if (!r.phone_number && !r.lead_id && !r.lead_id_malformed) {
    problems.push_back("Either phone_number or campaign_lead_id is required.");
    return std::nullopt;
  }
  return r;
}

} // namespace vcs::http
