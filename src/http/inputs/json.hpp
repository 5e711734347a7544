#pragma once

#include "domain/error.hpp"
#include "http/render/error_envelope.hpp"
#include "json/json.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vcs::http {

using json::is_storable_text;
using json::json_out;
using json::json_text;
using json::json_writer;
using json::parse_json;

// {"message": "..."} in one call, for the simple cases.
std::string message_json(std::string_view message);

// The spec's error envelope for a domain error, as the route's `envelope`
// shapes it.
std::string error_json(const domain::error& e, const error_envelope& envelope = {});

// What a bulk list body may hold, checked on its raw text.
struct list_body_limits {
  std::size_t items = 0;      // top-level items
  std::size_t item_bytes = 0; // bytes of one item as sent; 0: no bound
  std::size_t values = 0;     // JSON values in all; 0: no bound
};

// Checks a JSON array's raw text as it arrives, piece by piece, without
// parsing it: a session refuses an over-long bulk list, an item too large
// or a body of too many values while reading it, before the rest is read,
// stored or parsed. Items are the top-level values; values are counted
// about one each (every item, '[', '{', ':' and ',' outside strings), so a
// member counts its name too. A text that is not an array counts nothing
// (the parser judges it).
class array_item_counter {
public:
  enum class verdict { fine, too_many_items, item_too_large, too_many_values };

  explicit array_item_counter(list_body_limits limits) noexcept : limits_(limits) {}

  // Reads the next piece; once a limit is passed, says which (and keeps
  // saying it).
  verdict feed(std::string_view piece) noexcept;
  // The refusal for a verdict other than fine.
  domain::error refusal(verdict v) const;

private:
  enum class phase { before_array, before_item, in_items, done };

  verdict over(verdict v) noexcept;

  list_body_limits limits_;
  phase phase_ = phase::before_array;
  std::size_t items_ = 0;
  std::size_t item_bytes_ = 0;
  std::size_t values_ = 0;
  std::size_t depth_ = 0;
  bool in_string_ = false;
  bool escaped_ = false;
  verdict verdict_ = verdict::fine;
};

// Reads the members of one JSON object with type checks; problems go into
// `errors` under the member's name, and the getters return nullopt.
class object_reader {
public:
  object_reader(const rapidjson::Value& object, domain::field_errors& errors)
      : obj_(object), errors_(errors) {}

  bool has(const char* name) const;
  bool is_null(const char* name) const;
  std::optional<std::string> string(const char* name, bool required, std::size_t max_length = 255);
  std::optional<int64_t> integer(const char* name, bool required, int64_t min, int64_t max);
  std::optional<bool> boolean(const char* name, bool required);
  // A list of strings (each as sent; the domain checks them).
  std::optional<std::vector<std::string>> string_list(const char* name, bool required);
  // A non-negative decimal with at most `scale` fraction digits, given as a
  // JSON number or a decimal string; returned as exact text.
  std::optional<std::string> decimal(const char* name, bool required, int scale);

private:
  const rapidjson::Value* member(const char* name, bool required);

  const rapidjson::Value& obj_;
  domain::field_errors& errors_;
};

} // namespace vcs::http
