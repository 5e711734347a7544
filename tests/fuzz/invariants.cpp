#include "invariants.hpp"

#include "http/inputs/json.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace vcs::fuzz {

void invariant_failed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", condition, file, line);
  std::abort();
}

bool is_utf8(std::string_view text) noexcept {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    uint32_t code = 0;
    uint32_t smallest = 0;
    if ((lead & 0xE0) == 0xC0) {
      length = 2;
      code = lead & 0x1F;
      smallest = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
      length = 3;
      code = lead & 0x0F;
      smallest = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
      length = 4;
      code = lead & 0x07;
      smallest = 0x10000;
    } else {
      return false;
    }
    if (text.size() - i < length)
      return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80)
        return false;
      code = (code << 6) | (next & 0x3F);
    }
    if (code < smallest || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
      return false;
    i += length;
  }
  return true;
}

bool is_storable(std::string_view text) noexcept {
  return is_utf8(text) && text.find('\0') == std::string_view::npos;
}

rapidjson::Type check_json(std::string_view text, bool storable) {
  rapidjson::Document doc;
  // Iterative: the checker must not be what overflows the stack.
  doc.Parse<rapidjson::kParseIterativeFlag>(text.data(), text.size());
  FUZZ_CHECK(!doc.HasParseError());
  auto good = [storable](const char* s, rapidjson::SizeType n) {
    std::string_view v{s, n};
    return storable ? is_storable(v) : is_utf8(v);
  };
  std::vector<const rapidjson::Value*> pending{&doc};
  while (!pending.empty()) {
    const auto* v = pending.back();
    pending.pop_back();
    if (v->IsString()) {
      FUZZ_CHECK(good(v->GetString(), v->GetStringLength()));
    } else if (v->IsArray()) {
      for (const auto& item : v->GetArray())
        pending.push_back(&item);
    } else if (v->IsObject()) {
      for (const auto& m : v->GetObject()) {
        FUZZ_CHECK(good(m.name.GetString(), m.name.GetStringLength()));
        pending.push_back(&m.value);
      }
    }
  }
  return doc.GetType();
}

void check_error(const domain::error& e) {
  FUZZ_CHECK(!e.message.empty());
  FUZZ_CHECK(check_json(http::error_json(e)) == rapidjson::kObjectType);
}

} // namespace vcs::fuzz
