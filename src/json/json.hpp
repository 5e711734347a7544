#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// JSON text in and out, shared by the inbound server (src/http) and the
// outbound calls to vendors (src/outbound).
namespace vcs::json {

using json_writer = rapidjson::Writer<rapidjson::StringBuffer>;

// Builds one JSON document; keys and strings are string_views.
class json_out {
public:
  json_out() : w_(buf_) {}
  json_writer& w() noexcept { return w_; }
  void key(std::string_view k) { w_.Key(k.data(), static_cast<rapidjson::SizeType>(k.size())); }
  void str(std::string_view s) { w_.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }
  void field(std::string_view k, std::string_view v) {
    key(k);
    str(v);
  }
  void field(std::string_view k, const char* v) { field(k, std::string_view{v}); }
  void field(std::string_view k, const std::string& v) { field(k, std::string_view{v}); }
  void field(std::string_view k, bool v) {
    key(k);
    w_.Bool(v);
  }
  void field(std::string_view k, int64_t v) {
    key(k);
    w_.Int64(v);
  }
  void field(std::string_view k, int32_t v) { field(k, static_cast<int64_t>(v)); }
  void null_field(std::string_view k) {
    key(k);
    w_.Null();
  }
  void field(std::string_view k, const std::optional<std::string>& v) {
    if (v)
      field(k, *v);
    else
      null_field(k);
  }
  void field(std::string_view k, const std::optional<int32_t>& v) {
    if (v)
      field(k, *v);
    else
      null_field(k);
  }
  std::string take() { return std::string{buf_.GetString(), buf_.GetSize()}; }

private:
  rapidjson::StringBuffer buf_;
  json_writer w_;
};

// A parsed value written back as compact JSON text.
std::string json_text(const rapidjson::Value& v);

// Parses a request body; nullopt when it is not well-formed JSON, nests
// arrays and objects more than 64 deep, or holds a string that is not
// storable text (see below).
std::optional<rapidjson::Document> parse_json(std::string_view body);

// Text PostgreSQL can store in text and jsonb: well-formed UTF-8 without
// U+0000. Request strings end up there and in JSON responses.
bool is_storable_text(std::string_view text) noexcept;

} // namespace vcs::json
