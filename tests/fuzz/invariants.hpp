#pragma once

// Invariant checks of the fuzz targets. A broken invariant aborts, which
// libFuzzer (and the replay runner) reports as a crash, like a sanitizer
// finding.

#include "domain/error.hpp"

#include <rapidjson/document.h>

#include <string_view>

#define FUZZ_CHECK(condition)                                                                      \
  do {                                                                                             \
    if (!(condition))                                                                              \
      ::vcs::fuzz::invariant_failed(#condition, __FILE__, __LINE__);                               \
  } while (false)

namespace vcs::fuzz {

[[noreturn]] void invariant_failed(const char* condition, const char* file, int line);

// Strict UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF);
// written here independently of RapidJSON so that it can judge it.
bool is_utf8(std::string_view text) noexcept;

// Text PostgreSQL can store in a text or jsonb value: UTF-8 without U+0000.
bool is_storable(std::string_view text) noexcept;

// `text` is JSON whose every string and member name is UTF-8 (a response
// body): checked, aborting otherwise. With `storable`, strings must also be
// storable (JSON that goes to a jsonb column). Returns the type of the
// top-level value.
rapidjson::Type check_json(std::string_view text, bool storable = false);

// The error envelope the handler would answer with renders as valid JSON.
void check_error(const domain::error& e);

} // namespace vcs::fuzz
