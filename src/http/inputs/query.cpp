#include "http/inputs/query.hpp"

#include "domain/hex.hpp"
#include "http/inputs/json.hpp"

#include <charconv>

namespace vcs::http {

std::optional<std::string> target::param(std::string_view name) const {
  for (const auto& [k, v] : query)
    if (k == name)
      return v;
  return std::nullopt;
}

std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size())
        return std::nullopt;
      int hi = domain::hex_digit_value(text[i + 1]);
      int lo = domain::hex_digit_value(text[i + 2]);
      if (hi < 0 || lo < 0)
        return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::optional<int64_t> parse_whole_number(std::string_view text) noexcept {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size())
    return std::nullopt;
  return v;
}

std::optional<target> parse_target(std::string_view raw) {
  if (raw.empty() || raw.front() != '/')
    return std::nullopt;
  target t;
  auto q = raw.find('?');
  auto path = percent_decode(raw.substr(0, q), false);
  // Path segments and query values are echoed in JSON error messages: they
  // must be text (UTF-8, no NUL), whatever bytes or escapes were sent.
  if (!path || !is_storable_text(*path))
    return std::nullopt;
  t.path = std::move(*path);
  if (q == std::string_view::npos)
    return t;
  auto rest = raw.substr(q + 1);
  while (!rest.empty()) {
    auto amp = rest.find('&');
    auto pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    if (pair.empty())
      continue;
    auto eq = pair.find('=');
    auto key = percent_decode(pair.substr(0, eq), true);
    auto value = percent_decode(
        eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1), true);
    if (!key || !value || !is_storable_text(*key) || !is_storable_text(*value))
      return std::nullopt;
    t.query.emplace_back(std::move(*key), std::move(*value));
  }
  return t;
}

} // namespace vcs::http
