#pragma once

#include "domain/timestamp.hpp"

#include <soci/soci.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace vcs::storage {

// A nullable column or parameter for SOCI: the value and its indicator,
// converted to and from std::optional.
template <class T> struct nullable {
  T value{};
  soci::indicator ind = soci::i_null;

  nullable() = default;
  explicit nullable(const std::optional<T>& v)
      : value(v.value_or(T{})), ind(v ? soci::i_ok : soci::i_null) {}

  std::optional<T> get() const {
    return ind == soci::i_ok ? std::optional<T>{value} : std::nullopt;
  }
};

using nullable_text = nullable<std::string>;

// A timestamptz column read as PostgreSQL's text (sessions run in UTC).
inline domain::timestamp timestamp_column(std::string_view text) {
  auto t = domain::parse_pg_timestamp(text);
  if (!t)
    throw std::runtime_error("unreadable timestamp column: " + std::string{text});
  return *t;
}

inline std::optional<domain::timestamp> timestamp_column(const nullable_text& text) {
  if (text.ind != soci::i_ok)
    return std::nullopt;
  return timestamp_column(text.value);
}

} // namespace vcs::storage
