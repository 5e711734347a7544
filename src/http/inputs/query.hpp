#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vcs::http {

// A request target split into its percent-decoded path and query pairs.
struct target {
  std::string path;
  std::vector<std::pair<std::string, std::string>> query;

  // The first value of a query parameter, if present.
  std::optional<std::string> param(std::string_view name) const;
};

// Decodes %XX escapes and '+' (in queries); nullopt on a malformed escape.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

// A query value that is a whole decimal number (optional '-', digits only,
// fits int64); nullopt otherwise.
std::optional<int64_t> parse_whole_number(std::string_view text) noexcept;

// nullopt when the target is not origin-form, has malformed escapes, or
// decodes to something that is not text (is_storable_text, json.hpp).
std::optional<target> parse_target(std::string_view raw);

} // namespace vcs::http
