#include "json/json.hpp"

#include <rapidjson/encodedstream.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <cstdint>

namespace vcs::json {

namespace {

// Deepest nesting of arrays and objects a body may have. RapidJSON's
// parser, Accept() and the readers recurse once per level: unbounded, a
// body of 200 KB of '[' overflowed a worker thread's stack (a crash of the
// whole service).
constexpr int max_json_depth = 64;

// Passes a parse's events on to the document that keeps them, refusing
// arrays and objects nested deeper than max_json_depth (before the parser
// recurses into them) and strings or names that are not storable text:
// the body is read once.
class checked_events {
public:
  explicit checked_events(rapidjson::Document& doc) noexcept : doc_(doc) {}

  bool Null() { return doc_.Null(); }
  bool Bool(bool b) { return doc_.Bool(b); }
  bool Int(int i) { return doc_.Int(i); }
  bool Uint(unsigned u) { return doc_.Uint(u); }
  bool Int64(int64_t i) { return doc_.Int64(i); }
  bool Uint64(uint64_t u) { return doc_.Uint64(u); }
  bool Double(double d) { return doc_.Double(d); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool copy) {
    return doc_.RawNumber(s, n, copy);
  }
  bool String(const char* s, rapidjson::SizeType n, bool copy) {
    return is_storable_text({s, n}) && doc_.String(s, n, copy);
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) {
    return is_storable_text({s, n}) && doc_.Key(s, n, copy);
  }
  bool StartObject() { return ++depth_ <= max_json_depth && doc_.StartObject(); }
  bool EndObject(rapidjson::SizeType members) {
    --depth_;
    return doc_.EndObject(members);
  }
  bool StartArray() { return ++depth_ <= max_json_depth && doc_.StartArray(); }
  bool EndArray(rapidjson::SizeType items) {
    --depth_;
    return doc_.EndArray(items);
  }

private:
  rapidjson::Document& doc_;
  int depth_ = 0;
};

} // namespace

std::string json_text(const rapidjson::Value& v) {
  rapidjson::StringBuffer buf;
  json_writer w{buf};
  v.Accept(w);
  return std::string{buf.GetString(), buf.GetSize()};
}

std::optional<rapidjson::Document> parse_json(std::string_view body) {
  // RapidJSON takes raw bytes as they come, and turns \u0000 and a lone
  // \udc00 escape into a NUL and an invalid sequence: PostgreSQL refuses
  // such text (a 500, or a whole bulk import failing for one lead) and
  // truncates parameters at a NUL (a lead key naming another lead).
  // Without kParseStopWhenDoneFlag, trailing non-whitespace is an error.
  rapidjson::Document doc;
  bool parsed = false;
  auto parse = [&](rapidjson::Document& into) {
    rapidjson::MemoryStream bytes{body.data(), body.size()};
    rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> in{bytes};
    checked_events events{into};
    parsed = !rapidjson::Reader{}.Parse(in, events).IsError();
    return parsed;
  };
  doc.Populate(parse);
  if (!parsed)
    return std::nullopt;
  return doc;
}

bool is_storable_text(std::string_view text) noexcept {
  // Nearly all text is ASCII without NUL (bytes 1-127), which is valid
  // UTF-8 as it stands: one pass instead of a decoder step per character.
  if (std::all_of(text.begin(), text.end(),
                  [](char c) { return static_cast<unsigned char>(c) - 1u < 127u; }))
    return true;
  if (text.find('\0') != std::string_view::npos)
    return false;
  // RapidJSON's validator (Hoehrmann's DFA) refuses overlong forms,
  // surrogates and code points past U+10FFFF.
  struct discard {
    void Put(char) noexcept {}
  } out;
  rapidjson::MemoryStream in{text.data(), text.size()};
  while (in.Tell() < text.size())
    if (!rapidjson::UTF8<>::Validate(in, out))
      return false;
  return true;
}

} // namespace vcs::json
