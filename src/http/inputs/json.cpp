#include "http/inputs/json.hpp"

#include "domain/billing.hpp"

#include <rapidjson/encodedstream.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace vcs::http {

namespace {

void string_array(json_out& out, const std::vector<std::string>& items) {
  out.w().StartArray();
  for (const auto& s : items)
    out.str(s);
  out.w().EndArray();
}

} // namespace

std::string message_json(std::string_view message) {
  json_out out;
  out.w().StartObject();
  out.field("message", message);
  out.w().EndObject();
  return out.take();
}

std::string error_json(const domain::error& e, const error_envelope& envelope) {
  json_out out;
  out.w().StartObject();
  if (envelope.success_false && envelope.success_false(e))
    out.field("success", false);
  out.field("message", e.message);
  if (auto* list = std::get_if<std::vector<std::string>>(&e.errors)) {
    out.key("errors");
    string_array(out, *list);
  } else if (auto* fields = std::get_if<domain::field_errors>(&e.errors)) {
    out.key("errors");
    out.w().StartObject();
    for (const auto& [name, messages] : fields->entries()) {
      out.key(name);
      string_array(out, messages);
    }
    out.w().EndObject();
  }
  if (auto* text = std::get_if<std::string>(&e.detail)) {
    out.field("error", *text);
  } else if (auto* items = std::get_if<std::vector<std::string>>(&e.detail)) {
    out.key("error");
    string_array(out, *items);
  }
  if (e.valid_values) {
    out.key(envelope.values_key);
    string_array(out, *e.valid_values);
  }
  out.w().EndObject();
  return out.take();
}

array_item_counter::verdict array_item_counter::over(verdict v) noexcept {
  verdict_ = v;
  phase_ = phase::done;
  return v;
}

array_item_counter::verdict array_item_counter::feed(std::string_view piece) noexcept {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  for (const char c : piece) {
    switch (phase_) {
    case phase::done:
      return verdict_;
    case phase::before_array:
      if (!is_space(c))
        phase_ = c == '[' ? phase::before_item : phase::done;
      continue;
    case phase::before_item:
      if (is_space(c))
        continue;
      if (c == ']') {
        phase_ = phase::done; // empty
        continue;
      }
      phase_ = phase::in_items;
      ++values_;
      if (++items_ > limits_.items)
        return over(verdict::too_many_items);
      break; // c begins the first item
    case phase::in_items:
      break;
    }
    if (!in_string_ && depth_ == 0 && (c == ']' || c == ',')) {
      // The array closes, or the next item begins.
      if (c == ']') {
        phase_ = phase::done;
        continue;
      }
      ++values_;
      item_bytes_ = 0;
      if (++items_ > limits_.items)
        return over(verdict::too_many_items);
      continue;
    }
    if (limits_.item_bytes && ++item_bytes_ > limits_.item_bytes)
      return over(verdict::item_too_large);
    if (in_string_) {
      if (escaped_)
        escaped_ = false; // the escaped character cannot end the string
      else if (c == '\\')
        escaped_ = true;
      else if (c == '"')
        in_string_ = false;
      continue;
    }
    if (c == '"')
      in_string_ = true;
    else if (c == '[' || c == '{' || c == ':' || (c == ',' && depth_ > 0))
      ++values_;
    if (c == '[' || c == '{')
      ++depth_;
    else if ((c == ']' || c == '}') && depth_ > 0)
      --depth_;
    if (limits_.values && values_ > limits_.values)
      return over(verdict::too_many_values);
  }
  return verdict_;
}

domain::error array_item_counter::refusal(verdict v) const {
  switch (v) {
  case verdict::item_too_large:
    return domain::item_too_large(items_ - 1, limits_.item_bytes);
  case verdict::too_many_values:
    return domain::too_many_values(limits_.values);
  case verdict::too_many_items:
  case verdict::fine:
    break;
  }
  return domain::too_many_items(limits_.items);
}

bool object_reader::has(const char* name) const {
  return obj_.HasMember(name);
}

bool object_reader::is_null(const char* name) const {
  auto it = obj_.FindMember(name);
  return it != obj_.MemberEnd() && it->value.IsNull();
}

const rapidjson::Value* object_reader::member(const char* name, bool required) {
  auto it = obj_.FindMember(name);
  if (it == obj_.MemberEnd() || it->value.IsNull()) {
    if (required)
      errors_.add(name, "This field is required.");
    return nullptr;
  }
  return &it->value;
}

std::optional<std::string> object_reader::string(const char* name, bool required,
                                                 std::size_t max_length) {
  auto* v = member(name, required);
  if (!v)
    return std::nullopt;
  if (!v->IsString()) {
    errors_.add(name, "Must be a string.");
    return std::nullopt;
  }
  std::string s{v->GetString(), v->GetStringLength()};
  if (required && s.find_first_not_of(" \t\r\n") == std::string::npos) {
    errors_.add(name, "This field may not be blank.");
    return std::nullopt;
  }
  if (s.size() > max_length) {
    errors_.add(name, "Ensure this field has no more than " + std::to_string(max_length) +
                          " characters.");
    return std::nullopt;
  }
  return s;
}

std::optional<std::vector<std::string>> object_reader::string_list(const char* name,
                                                                   bool required) {
  auto* v = member(name, required);
  if (!v)
    return std::nullopt;
  std::vector<std::string> out;
  if (v->IsArray())
    for (const auto& item : v->GetArray()) {
      if (!item.IsString())
        break;
      out.emplace_back(item.GetString(), item.GetStringLength());
    }
  if (!v->IsArray() || out.size() != v->Size()) {
    errors_.add(name, "Must be a list of strings.");
    return std::nullopt;
  }
  return out;
}

std::optional<int64_t> object_reader::integer(const char* name, bool required, int64_t min,
                                              int64_t max) {
  auto* v = member(name, required);
  if (!v)
    return std::nullopt;
  if (!v->IsInt64()) {
    errors_.add(name, "A valid integer is required.");
    return std::nullopt;
  }
  auto n = v->GetInt64();
  if (n < min || n > max) {
    errors_.add(name,
                "Must be between " + std::to_string(min) + " and " + std::to_string(max) + ".");
    return std::nullopt;
  }
  return n;
}

std::optional<bool> object_reader::boolean(const char* name, bool required) {
  auto* v = member(name, required);
  if (!v)
    return std::nullopt;
  if (!v->IsBool()) {
    errors_.add(name, "Must be a boolean.");
    return std::nullopt;
  }
  return v->GetBool();
}

std::optional<std::string> object_reader::decimal(const char* name, bool required, int scale) {
  auto* v = member(name, required);
  if (!v)
    return std::nullopt;
  std::string text;
  if (v->IsString()) {
    text.assign(v->GetString(), v->GetStringLength());
  } else if (v->IsUint64()) {
    text = std::to_string(v->GetUint64());
  } else if (v->IsNumber()) {
    // A JSON fraction arrives as a double: print it at the scale, then drop
    // trailing zeros, so 19.99 stays "19.99".
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", scale, v->GetDouble());
    text = buf;
    if (text.find('.') != std::string::npos) {
      text.erase(text.find_last_not_of('0') + 1);
      if (text.back() == '.')
        text.pop_back();
    }
  }
  if (!domain::is_decimal(text, scale)) {
    errors_.add(name, "Enter a non-negative number with at most " + std::to_string(scale) +
                          " decimal places.");
    return std::nullopt;
  }
  return text;
}

} // namespace vcs::http
