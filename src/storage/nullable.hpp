#pragma once

#include <soci/soci.h>

#include <optional>
#include <string>

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

} // namespace vcs::storage
